import { it as vitestIt } from "vitest";
import type { Database } from "@/lib/db/database";
import type { ProviderRegistry } from "@/lib/providers/registry";
import type { TestDatabase } from "../helpers/databases";
import { engineOn } from "../helpers/engine";

/** Makes the database an eval suite runs on, or null when that backend is not reachable here. */
export type CreateTestDatabase = () => Promise<TestDatabase | null>;

/**
 * For the tests of one eval suite: the database `create` makes and a worker over `providers`,
 * started before the first test and stopped after the last. Read `db` inside tests, not at load
 * time; `it` skips its test when the backend is not reachable (see postgresServerAvailable).
 */
export function evalEngineOn(
  create: CreateTestDatabase,
  providers: ProviderRegistry,
): { readonly db: Database; it: (name: string, body: () => Promise<void>, timeoutMs?: number) => void } {
  const engine = engineOn(create, providers);
  return {
    get db() {
      if (!engine.db) throw new Error("the eval suite's database is there only while its tests run");
      return engine.db;
    },
    it(name, body, timeoutMs) {
      vitestIt(
        name,
        async (context) => {
          if (!engine.db) return context.skip();
          await body();
        },
        timeoutMs,
      );
    },
  };
}
