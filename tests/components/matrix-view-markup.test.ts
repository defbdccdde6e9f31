import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { MatrixGrid } from "@/components/matrix/matrix-grid";
import { MatrixPlanView } from "@/components/matrix/matrix-plan";
import type { MatrixDetail, MatrixEval, MatrixPlanResponse } from "@/lib/api/matrix";

// The Matrix view's grid and plan as markup: a cell per prompt version x model x input with its
// status in words, tokens, cost (unknown when unpriced, never $0), duration and grade; an error's
// markup as text; the plan's unpriced model said unknown.

const plan: MatrixPlanResponse = {
  prompts: ["v1", "v2"],
  models: ["mock/echo", "groq/unpriced"],
  inputs: ["a", "b"],
  evals: 8,
  estimate: {
    models: [
      { model: "mock/echo", evals: 4, inputTokens: 1_200, outputTokens: 4_000, costUsd: 0 },
      { model: "groq/unpriced", evals: 4, inputTokens: 1_200, outputTokens: 4_000, costUsd: null },
    ],
    inputTokens: 2_400,
    outputTokens: 8_000,
    costUsd: 0,
    unpricedModels: ["groq/unpriced"],
  },
  needsConfirmation: false,
};

function item(prompt: string, model: string, input: string, overrides: Partial<MatrixEval> = {}): MatrixEval {
  return {
    runId: `20251227_143500_${prompt}_${model.replace("/", "-")}_${input}`,
    prompt,
    model,
    input,
    status: "ok",
    output: "fine",
    error: null,
    tokensInput: 12_500,
    tokensOutput: 850,
    costUsd: 0.0098,
    durationSeconds: 4.2,
    grade: null,
    graderCostUsd: null,
    metricScores: null,
    graderError: null,
    ...overrides,
  };
}

const detail: MatrixDetail = {
  matrix: {
    id: "00000000-0000-4000-8000-000000000001",
    batchId: "20251227_143500_matrix",
    status: "running",
    plan,
    counts: { pending: 2, ok: 5, warning: 0, error: 1 },
    createdAt: "2025-12-27T14:35:00.000Z",
    finishedAt: null,
  },
  evals: [
    item("v1", "mock/echo", "a", { grade: 0.75 }),
    item("v1", "mock/echo", "b", {
      status: "error",
      output: null,
      error: "<img src=x onerror=alert(1)>",
      tokensInput: null,
      tokensOutput: null,
      costUsd: null,
    }),
    item("v1", "groq/unpriced", "a", { costUsd: null }),
    item("v1", "groq/unpriced", "b", {
      status: "queued",
      runId: null,
      output: null,
      tokensInput: null,
      tokensOutput: null,
      costUsd: null,
      durationSeconds: null,
    }),
    item("v2", "mock/echo", "a"),
    item("v2", "mock/echo", "b"),
    item("v2", "groq/unpriced", "a", {
      status: "running",
      output: null,
      tokensInput: null,
      tokensOutput: null,
      costUsd: null,
      durationSeconds: null,
    }),
    item("v2", "groq/unpriced", "b", { costUsd: null }),
  ],
  comparisons: [],
};

/** The text of each cell button, in document order. */
function cells(html: string): string[] {
  return [...html.matchAll(/<button[^>]*>([\s\S]*?)<\/button>/g)].map((match) =>
    match[1]
      .replace(/<[^>]+>/g, "")
      .replace(/\s+/g, " ")
      .trim(),
  );
}

describe("MatrixGrid", () => {
  const html = renderToStaticMarkup(createElement(MatrixGrid, { detail, onOpen: () => {} }));

  it("draws a row per input and a column per prompt version on each model, the versions heading their models", () => {
    expect(html.match(/<tr/g)).toHaveLength(4);
    expect(html).toMatch(/<th scope="colgroup" colSpan="2"[^>]*>v1<\/th>/);
    expect(html.match(/scope="col"/g)).toHaveLength(4);
    expect(html.match(/scope="row"/g)).toHaveLength(2);
  });

  it("gives each cell its status in words and its figures; an unpriced finished eval costs unknown, a queued or running one only its status", () => {
    // Row a, then row b; in each, v1 on echo, v1 on unpriced, v2 on echo, v2 on unpriced.
    expect(cells(html)).toEqual([
      "a, v1 on mock/echo: Done12,500 in / 850 out$0.0098 · 4.2 s · grade 0.75",
      "a, v1 on groq/unpriced: Done12,500 in / 850 outunknown · 4.2 s",
      "a, v2 on mock/echo: Done12,500 in / 850 out$0.0098 · 4.2 s",
      "a, v2 on groq/unpriced: Running",
      // Failed before an answer: no tokens, so no cost at all (not an unknown price).
      "b, v1 on mock/echo: Error–– · 4.2 s&lt;img src=x onerror=alert(1)&gt;",
      "b, v1 on groq/unpriced: Queued",
      "b, v2 on mock/echo: Done12,500 in / 850 out$0.0098 · 4.2 s",
      "b, v2 on groq/unpriced: Done12,500 in / 850 outunknown · 4.2 s",
    ]);
  });

  it("never draws an error's markup as an element", () => {
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
  });
});

describe("MatrixPlanView", () => {
  const html = renderToStaticMarkup(createElement(MatrixPlanView, { plan, starting: false, onRun: () => {} }));
  const text = html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");

  it("counts the evals and estimates per model: the unpriced model unknown, the total naming it, never $0 for it", () => {
    expect(text).toContain("2 prompt versions × 2 models × 2 inputs = 8 evals");
    expect(text).toContain("mock/echo 4 1,200 4,000 $0.0000");
    expect(text).toContain("groq/unpriced 4 1,200 4,000 unknown (no price)");
    expect(text).toContain("Total 8 2,400 8,000 $0.0000 (not counting 1 unpriced model: groq/unpriced)");
    expect(text).toContain("Run 8 evals");
  });
});
