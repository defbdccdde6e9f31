import { afterAll, beforeAll, it as vitestIt } from "vitest";
import type { Database } from "@/lib/db/database";
import { startWorker, type Worker } from "@/lib/engine/worker";
import type { ProviderRegistry } from "@/lib/providers/registry";
import type { TestDatabase } from "../helpers/databases";

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
      if (!test) throw new Error("the eval suite's database is there only while its tests run");
      return test.db;
    },
    it(name, body, timeoutMs) {
      vitestIt(
        name,
        async (context) => {
          if (!test) return context.skip();
          await body();
        },
        timeoutMs,
      );
    },
  };
}
