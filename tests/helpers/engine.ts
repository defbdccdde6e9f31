import { afterAll, beforeAll } from "vitest";
import type { CreateRunInput } from "@/lib/api/schemas";
import type { Run } from "@/lib/api/types";
import type { Database } from "@/lib/db/database";
import { createRun, type MissingVariablesRule } from "@/lib/engine/create-run";
import { getRun } from "@/lib/services/runs";
import { startWorker, type Worker } from "@/lib/engine/worker";
import type { ProviderRegistry } from "@/lib/providers/registry";
import { createPgliteTestDatabase, waitFor, type TestDatabase } from "./databases";

/**
 * For the tests of one file: a fresh database from `create` and a worker over `providers`,
 * started before the first test and stopped after the last. `create` answers null when its
 * database is not there (a Postgres server that is not running): `db` is null then, and the tests
 * skip. Read `db` inside tests, not at load time.
 */
export function engineOn(create: () => Promise<TestDatabase | null>, providers: ProviderRegistry): { readonly db: Database | null } {
  let test: TestDatabase | null = null;
  let worker: Worker | null = null;
  beforeAll(async () => {
    test = await create();
    if (test) worker = await startWorker({ db: test.db, providers, pollMs: 20 });
  });
  afterAll(async () => {
    await worker?.stop();
    await test?.drop();
  });
  return {
    get db() {
      return test?.db ?? null;
    },
  };
}

/** engineOn a fresh in-memory PGlite, which is always there. */
export function pgliteEngine(providers: ProviderRegistry): { readonly db: Database } {
  const engine = engineOn(createPgliteTestDatabase, providers);
  return {
    get db() {
      if (!engine.db) throw new Error("pgliteEngine's database is there only while its file's tests run");
      return engine.db;
    },
  };
}

/** Creates a run as userId and waits until it has completed. */
export async function runToEnd(
  { db, providers }: { db: Database; providers: ProviderRegistry },
  {
    userId,
    input,
    timeoutMs,
    missingVariables,
  }: { userId: string; input: CreateRunInput; timeoutMs?: number; missingVariables?: MissingVariablesRule },
): Promise<Run> {
  const run = await createRun({ db, providers }, { userId, input, missingVariables });
  return waitFor(
    async () => {
      const current = await getRun({ db }, { userId, runId: run.id });
      return current.status === "completed" ? current : null;
    },
    { timeoutMs, what: `run ${run.id} to complete` },
  );
}
