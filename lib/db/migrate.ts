import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { projectRoot } from "@/lib/project-root";
import type { Database } from "./database";

/** Where the SQL migrations live, relative to the project root. */
export const migrationsDir = path.join(projectRoot(), "supabase", "migrations");

// Any fixed number works; it only has to be the same in every process that migrates.
const migrationLockKey = 7_316_221;

/**
 * Applies supabase/migrations/*.sql in name order, each once, all in one transaction (a failed
 * migration leaves the schema as it was), recorded in parallaxr.schema_migrations. Safe to call from several processes at once.
 * Returns the names applied now.
 */
export async function migrate(db: Database, { dir = migrationsDir }: { dir?: string } = {}): Promise<string[]> {
  const files = readdirSync(/*turbopackIgnore: true*/ dir)
    .filter((name) => name.endsWith(".sql"))
    .sort();
  // Most opens find every migration applied: one read says so, without the lock and the DDL below.
  const done = await db.query<{ name: string }>("select name from parallaxr.schema_migrations").then(
    (result) => new Set(result.rows.map((row) => row.name)),
    () => new Set<string>(),
  );
  if (files.every((name) => done.has(name))) return [];
  const applied: string[] = [];
  await db.transaction(async (tx) => {
    // Two workers starting together must not both apply 0001 (nor both create the bookkeeping
    // table): hold a lock for the whole transaction.
    await tx.query("select pg_advisory_xact_lock($1)", [migrationLockKey]);
    await tx.exec(`
      create schema if not exists parallaxr;
      create table if not exists parallaxr.schema_migrations (
        name text primary key,
        applied_at timestamptz not null default now()
      );
    `);
    const already = new Set((await tx.query<{ name: string }>("select name from parallaxr.schema_migrations")).rows.map((row) => row.name));
    for (const name of files) {
      if (already.has(name)) continue;
      const file = path.join(/*turbopackIgnore: true*/ dir, name);
      const sql = readFileSync(/*turbopackIgnore: true*/ file, "utf8");
      try {
        await tx.exec(sql);
      } catch (error) {
        throw new Error(`Migration ${name} failed: ${(error as Error).message}`, { cause: error });
      }
      await tx.query("insert into parallaxr.schema_migrations (name) values ($1)", [name]);
      applied.push(name);
    }
  });
  return applied;
}
