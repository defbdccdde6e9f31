import { afterAll, beforeAll, describe, expect } from "vitest";
import { GET as getGrades } from "@/app/api/v1/runs/[id]/grades/route";
import { runGradesSchema, type RunGrades } from "@/lib/api/run-grades";
import { localUserId } from "@/lib/auth/local-user";
import { readAccessConfig } from "@/lib/auth/access-config";
import { createDataset } from "@/lib/services/datasets";
import { getRun, gradeCell } from "@/lib/services/runs";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { createProviderRegistry } from "@/lib/providers/registry";
import type { AppContext } from "@/lib/server/context";
import { userB } from "../helpers/databases";
import { runToEnd } from "../helpers/engine";
import { evalEngineOn, type CreateTestDatabase } from "./evals-engine-database";

// GET /api/v1/runs/{id}/grades (the history's paired compare): each graded cell by model,
// dataset row and trial, a person's grade as the grid counts it, and nothing of another user's run.

/** The grades listing and its ownership, run against one kind of database. */
export function describeRunGradesApi(label: string, create: CreateTestDatabase): void {
  describe(`GET /api/v1/runs/{id}/grades on ${label}`, () => {
    const providers = createProviderRegistry([createMockProvider()]);
    const engine = evalEngineOn(create, providers);
    const it = engine.it;
    const contextStore = globalThis as typeof globalThis & { __parallaxrContext?: Promise<AppContext> };

    beforeAll(() => {
      contextStore.__parallaxrContext = Promise.resolve({
        get db() {
          return engine.db;
        },
        providers,
        access: readAccessConfig({}),
        worker: null,
      } as unknown as AppContext);
    });
    afterAll(() => {
      contextStore.__parallaxrContext = undefined;
    });

    const grades = (id: string) => getGrades(new Request(`http://test/api/v1/runs/${id}/grades`), { params: Promise.resolve({ id }) });

    it("lists the graded cells of the caller's run by model, dataset row and trial, with the run's dataset", async () => {
      const dataset = await createDataset(
        { db: engine.db },
        { userId: localUserId, dataset: { name: "d", rows: [{ x: "a" }, { x: "b" }, { x: "c" }] } },
      );
      const run = await runToEnd(
        { db: engine.db, providers },
        {
          userId: localUserId,
          input: {
            prompt: "Say {{x}}",
            datasetId: dataset.id,
            models: [
              { provider: "mock", model: "echo", params: {} },
              { provider: "mock", model: "fast", params: {} },
            ],
          },
        },
      );
      const detail = await getRun({ db: engine.db }, { userId: localUserId, runId: run.id });
      const cellOf = (column: number, row: number) => detail.cells.find((cell) => cell.column === column && cell.row === row)!;
      await gradeCell({ db: engine.db }, { userId: localUserId, runId: run.id, cellId: cellOf(0, 0).id, grade: 1 });
      await gradeCell({ db: engine.db }, { userId: localUserId, runId: run.id, cellId: cellOf(0, 2).id, grade: 0 });
      await gradeCell({ db: engine.db }, { userId: localUserId, runId: run.id, cellId: cellOf(1, 1).id, grade: 1 });

      const response = await grades(run.id);
      expect(response.status).toBe(200);
      const body: RunGrades = runGradesSchema.parse(await response.json());
      // Without a grader only a person's grades count: the ungraded cells are left out.
      expect(body).toEqual({
        runId: run.id,
        datasetId: dataset.id,
        tooMany: false,
        cells: [
          { provider: "mock", model: "echo", rowIndex: 0, trial: 0, grade: 1 },
          { provider: "mock", model: "echo", rowIndex: 2, trial: 0, grade: 0 },
          { provider: "mock", model: "fast", rowIndex: 1, trial: 0, grade: 1 },
        ],
      });
    });

    it("answers 404 for another user's run, and 400 for an id that is not one", async () => {
      const theirs = await runToEnd(
        { db: engine.db, providers },
        {
          userId: userB,
          input: { prompt: "Say {{x}}", rows: [{ x: "secret" }], models: [{ provider: "mock", model: "echo", params: {} }] },
        },
      );
      const response = await grades(theirs.id);
      expect(response.status).toBe(404);
      expect(await response.text()).not.toContain("secret");
      expect((await grades("not-a-uuid")).status).toBe(400);
    });
  });
}
