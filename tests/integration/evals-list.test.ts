import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getEvalRoute } from "@/app/api/v1/evals/[id]/route";
import { GET as listEvalsRoute, POST as postEval } from "@/app/api/v1/evals/route";
import { createEvalSchema, type EvalDetail, type EvalList } from "@/lib/api/evals";
import { readAccessConfig } from "@/lib/auth/access-config";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { createProviderRegistry } from "@/lib/providers/registry";
import type { AppContext } from "@/lib/server/context";
import { listEvalRuns } from "@/lib/services/eval-list";
import { createEval } from "@/lib/services/evals";
import { createServerTestDatabase, postgresServerAvailable, userA, userB, waitFor, type TestDatabase } from "../helpers/databases";
import { pgliteEngine } from "../helpers/engine";

// GET /api/v1/evals (issue 12): the caller's eval runs newest first, a page at a time, each with
// its EvalRuns' pass rates; another user's never listed. And POST /api/v1/evals refusing a body
// over its limit with 413 before reading it as JSON.

const providers = createProviderRegistry([createMockProvider()]);
const engine = pgliteEngine(providers);
const contextStore = globalThis as typeof globalThis & { __parallaxrContext?: Promise<AppContext> };

beforeAll(() => {
  contextStore.__parallaxrContext = Promise.resolve({
    db: engine.db,
    providers,
    access: readAccessConfig({}),
    worker: null,
  } as unknown as AppContext);
});
afterAll(() => {
  contextStore.__parallaxrContext = undefined;
});

// Two prompts on the mock's echo: test1 and test3 pass for both (their inputs hold "Rust"), test2 for neither.
const CONFIG = `model: mock/echo
evaluation_threshold: 0.5
prompts:
  - name: first
    template: "Say {text}"
  - name: second
    template: "Repeat {text}"
test_cases:
  - name: test1
    inputs: {text: "Rust is fast"}
    expected_contains: ["Rust"]
  - name: test2
    inputs: {text: "Go is simple"}
    expected_contains: ["Haskell"]
  - name: test3
    inputs: {text: "Rust again"}
    expected_contains: ["Rust"]
metrics:
  - type: contains
`;

const post = (body: unknown) => postEval(new Request("http://test/api/v1/evals", { method: "POST", body: JSON.stringify(body) }));
const list = (query = "") => listEvalsRoute(new Request(`http://test/api/v1/evals${query}`));
const detailOf = async (id: string): Promise<EvalDetail> =>
  (await getEvalRoute(new Request(`http://test/api/v1/evals/${id}`), { params: Promise.resolve({ id }) })).json();

async function created(body: unknown): Promise<string> {
  const response = await post(body);
  expect(response.status).toBe(201);
  return (await response.json()).eval.id;
}

describe("GET /api/v1/evals", () => {
  it("lists the caller's eval runs newest first with each EvalRun's run_id, prompt, model and pass rate", async () => {
    const older = await created({ config: CONFIG, configName: "older.yaml" });
    const newer = await created({ config: CONFIG, configName: "newer.yaml" });
    const finished = await waitFor(
      async () => {
        const detail = await detailOf(newer);
        return detail.eval.status === "completed" ? detail : null;
      },
      { what: "the newer eval to complete", timeoutMs: 20_000 },
    );

    const response = await list();
    expect(response.status).toBe(200);
    const page: EvalList = await response.json();
    const ids = page.evals.map((listed) => listed.eval.id);
    expect(ids.indexOf(newer)).toBeLessThan(ids.indexOf(older));
    expect(ids.indexOf(older)).toBeGreaterThanOrEqual(0);
    const listed = page.evals.find((candidate) => candidate.eval.id === newer)!;
    expect(listed.eval.configName).toBe("newer.yaml");
    expect(listed.runs).toEqual(
      finished.runs.map((run) => ({
        run_id: run.run_id,
        prompt_name: run.prompt_name,
        model: run.model,
        results: run.results.length,
        cells: 3,
        pass_rate: run.pass_rate,
      })),
    );
    expect(listed.runs.map((run) => run.pass_rate)).toEqual([2 / 3, 2 / 3]);
    expect(page.nextOffset).toBeNull();
  });

  it("pages with limit and offset, and refuses a limit over 100 or a parameter it does not take", async () => {
    const first = (await (await list("?limit=1")).json()) as EvalList;
    expect(first.evals).toHaveLength(1);
    expect(first.nextOffset).toBe(1);
    const second = (await (await list("?limit=1&offset=1")).json()) as EvalList;
    expect(second.evals).toHaveLength(1);
    expect(second.evals[0].eval.id).not.toBe(first.evals[0].eval.id);
    expect((await list("?limit=101")).status).toBe(400);
    expect((await list("?limit=0")).status).toBe(400);
    expect((await list("?page=2")).status).toBe(400);
  });

  it("never lists another user's eval runs", async () => {
    const theirs = await createEval(
      { db: engine.db },
      { userId: userB, input: createEvalSchema.parse({ config: CONFIG, configName: "theirs.yaml" }) },
    );
    const page: EvalList = await (await list("?limit=100")).json();
    expect(page.evals.map((listed) => listed.eval.id)).not.toContain(theirs.eval.id);
    const theirList = await listEvalRuns({ db: engine.db }, { userId: userB, limit: 100, offset: 0 });
    expect(theirList.evals.map((listed) => listed.eval.id)).toEqual([theirs.eval.id]);
  });
});

describe("POST /api/v1/evals body limit", () => {
  it("refuses a body over 8 MB with 413 naming the limit, before reading it as JSON", async () => {
    // Not JSON at all: a 413, not a 400, shows the size was checked before parsing.
    const oversized = "x".repeat(8 * 1024 * 1024 + 1);
    const response = await postEval(new Request("http://test/api/v1/evals", { method: "POST", body: oversized }));
    expect(response.status).toBe(413);
    expect((await response.json()).error.message).toContain("POST /api/v1/evals");
    // A declared length over the limit is refused before a byte is read.
    const declared = await postEval(
      new Request("http://test/api/v1/evals", {
        method: "POST",
        headers: { "content-length": String(9 * 1024 * 1024) },
        body: new ReadableStream({ start: (controller) => controller.error(new Error("the body was read")) }),
        duplex: "half",
      } as RequestInit),
    );
    expect(declared.status).toBe(413);
  });

  it("still takes a config and prompt files within the limit (a prompt file of 1,900,000 characters)", async () => {
    const big = `# ${"a".repeat(1_900_000)}\nname: big\ntemplate: "Say {text}"\n`;
    const config = CONFIG.replace('  - name: first\n    template: "Say {text}"\n', "  - big.yaml\n");
    const response = await post({ config, files: { "big.yaml": big } });
    expect(response.status, await response.clone().text()).toBe(201);
  });
});

describe("GET /api/v1/evals on the Postgres server", () => {
  let server: TestDatabase | null = null;
  beforeAll(async () => {
    server = (await postgresServerAvailable()) ? await createServerTestDatabase() : null;
  });
  afterAll(async () => {
    await server?.drop();
  });

  it("lists each user's own eval runs only", async () => {
    if (!server) throw new Error("the Postgres server at 127.0.0.1:5432 is needed for this test");
    const input = createEvalSchema.parse({ config: CONFIG });
    const mine = await createEval({ db: server.db }, { userId: userA, input });
    const theirs = await createEval({ db: server.db }, { userId: userB, input });
    const forA = await listEvalRuns({ db: server.db }, { userId: userA, limit: 100, offset: 0 });
    const forB = await listEvalRuns({ db: server.db }, { userId: userB, limit: 100, offset: 0 });
    expect(forA.evals.map((listed) => listed.eval.id)).toEqual([mine.eval.id]);
    expect(forB.evals.map((listed) => listed.eval.id)).toEqual([theirs.eval.id]);
    expect(forA.evals[0].runs.map((run) => [run.prompt_name, run.model, run.cells, run.results])).toEqual([
      ["first", "mock/echo", 3, 0],
      ["second", "mock/echo", 3, 0],
    ]);
  });
});
