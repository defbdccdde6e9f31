import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getMatrixRoute } from "@/app/api/v1/matrix/[id]/route";
import { POST as postMatrix } from "@/app/api/v1/matrix/route";
import { createMatrixSchema, type MatrixDetail } from "@/lib/api/matrix";
import { readAccessConfig } from "@/lib/auth/access-config";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { createProviderRegistry } from "@/lib/providers/registry";
import type { AppContext } from "@/lib/server/context";
import { createMatrix } from "@/lib/services/matrix";
import { userB, waitFor } from "../helpers/databases";
import { pgliteEngine } from "../helpers/engine";

// The matrix API (issue 13) through its route handlers, keyless on mock models: a run and its
// grid, a dry run's plan, and what a wrong or hostile request gets.

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

const BODY = {
  prompts: [
    { version: "v1", fileName: "v1.txt", text: "Summarize:\n\n{{input}}" },
    { version: "v2", fileName: "v2.md", text: "# Task\n\nList the key points of {{input_id}}:\n\n{{transcript}}" },
  ],
  models: ["mock/echo", "mock/fast"],
  inputs: [
    { id: "tech-talk-01", text: "# Example Tech Talk\n\nCompilers, <script>alert(1)</script> and more." },
    { id: "interview-02", text: "An interview." },
  ],
};

const post = (body: unknown) => postMatrix(new Request("http://test/api/v1/matrix", { method: "POST", body: JSON.stringify(body) }));
const get = (id: string) => getMatrixRoute(new Request(`http://test/api/v1/matrix/${id}`), { params: Promise.resolve({ id }) });

async function runToEnd(body: unknown): Promise<MatrixDetail> {
  const response = await post(body);
  expect(response.status).toBe(201);
  const { matrix } = (await response.json()) as { matrix: { id: string } };
  return waitFor(
    async () => {
      const detail = (await (await get(matrix.id)).json()) as MatrixDetail;
      return detail.matrix.status === "completed" ? detail : null;
    },
    { what: "the matrix to complete", timeoutMs: 20_000 },
  );
}

describe("the matrix API", () => {
  it("creates 8 evals for 2 x 2 x 2 and answers the grid with every output as the model wrote it", async () => {
    const detail = await runToEnd(BODY);
    expect(detail.matrix.plan.evals).toBe(8);
    expect(detail.matrix.counts).toEqual({ pending: 0, ok: 8, warning: 0, error: 0 });
    expect(detail.evals).toHaveLength(8);
    // The input's text reaches the model as it is (a script tag included): output is data, shown as text by the page.
    expect(detail.evals[0].output).toContain("<script>alert(1)</script>");
  });

  it("answers a dry run with 200 and the plan, and creates nothing", async () => {
    const response = await post({ ...BODY, dryRun: true });
    expect(response.status).toBe(200);
    const answer = (await response.json()) as { dryRun: true; plan: { evals: number; estimate: { models: unknown[] } } };
    expect(answer.dryRun).toBe(true);
    expect(answer.plan.evals).toBe(8);
    expect(answer.plan.estimate.models).toHaveLength(2);
  });

  it("refuses an unknown field, a bad subset, a placeholder without a value and a name that could leave its folder", async () => {
    const unknown = await post({ ...BODY, max_concurrent: 3 });
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(await unknown.json())).toContain("max_concurrent");

    const subset = await post({ ...BODY, subset: { prompts: "v1,,v2" } });
    expect(subset.status).toBe(400);
    expect(JSON.stringify(await subset.json())).toContain("--prompts must be comma-separated versions (e.g., v1,v2,v3)");

    const unknownModel = await post({ ...BODY, subset: { models: "mock/echo,gpt-9" } });
    expect(unknownModel.status).toBe(400);
    expect(((await unknownModel.json()) as { error: { message: string } }).error.message).toContain('--models: unknown model "gpt-9"');

    const placeholder = await post({ ...BODY, prompts: [{ version: "v3", text: "{{style}}: {{input}}" }] });
    expect(placeholder.status).toBe(400);
    expect(JSON.stringify(await placeholder.json())).toContain("{{style}}");

    for (const id of ["../etc", "a/b", "..", ".hidden"]) {
      const escaping = await post({ ...BODY, inputs: [{ id, text: "x" }] });
      expect(escaping.status).toBe(400);
    }
    const escapingVersion = await post({ ...BODY, prompts: [{ version: "../v1", text: "{{input}}" }] });
    expect(escapingVersion.status).toBe(400);
  });

  it("answers 404 for another user's matrix and for a matrix id that is not one", async () => {
    const theirs = await createMatrix({ db: engine.db }, { userId: userB, input: createMatrixSchema.parse(BODY) });
    if (!("matrix" in theirs)) throw new Error("expected a run");
    expect((await get(theirs.matrix.id)).status).toBe(404);
    expect((await get("not-a-uuid")).status).toBe(400);
  });
});
