import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { EvalGrid } from "@/components/evals/eval-grid";
import type { EvalDetail } from "@/lib/api/evals";

// The /evals grid as markup: a row per test case, a column per prompt on a model, each result's
// verdict in words, a pending result, output never drawn as HTML, and a large eval drawn 500 rows at a time.

function result(name: string, overrides: Partial<EvalDetail["runs"][number]["results"][number]> = {}) {
  return {
    test_case: name,
    prompt_name: "p",
    trial: 1,
    system_prompt: "",
    input_text: "",
    output: "<img src=x onerror=alert(1)>",
    metrics: { contains: 1 },
    passed: true,
    latency_ms: 10,
    tokens_in: 1,
    tokens_out: 1,
    cost_usd: null,
    error: null,
    ...overrides,
  };
}

function detail(results: ReturnType<typeof result>[], testCases: number, status: EvalDetail["eval"]["status"] = "running"): EvalDetail {
  return {
    eval: {
      id: "00000000-0000-4000-8000-000000000001",
      status,
      configName: "eval.yaml",
      prompts: ["p"],
      models: ["mock/echo"],
      testCases,
      repeat: 1,
      cells: testCases,
      warnings: [],
      counts: { pending: 0, ok: results.length, warning: 0, error: 0 },
      createdAt: "2026-11-26T00:00:00.000Z",
      finishedAt: null,
    },
    runs: [
      {
        run_id: "0123abcd",
        prompt_name: "p",
        model: "mock/echo",
        config: { model: "mock/echo", max_tokens: 1, temperature: 0, evaluation_threshold: 0.5 },
        started_at: "2026-11-26T00:00:00.000Z",
        completed_at: null,
        results,
        pass_rate: 0,
        avg_latency_ms: 0,
        cost_usd: null,
      },
    ],
  };
}

const render = (value: EvalDetail, testCases: string[] | null = null) =>
  renderToStaticMarkup(createElement(EvalGrid, { detail: value, testCases, onOpen: () => {} }));

describe("the eval grid", () => {
  it("shows each verdict in words, a pending result, and the scores", () => {
    const html = render(
      detail(
        [
          result("t1"),
          result("t2", { passed: false, metrics: { contains: 0 } }),
          result("t3", { error: "Missing input variable x in test case t3", passed: false }),
        ],
        4,
      ),
      ["t1", "t2", "t3", "t4"],
    );
    expect(html).toContain(">Pass<");
    expect(html).toContain(">Fail<");
    expect(html).toContain(">Error<");
    expect(html).toContain("Missing input variable x in test case t3");
    expect(html).toContain("Pending…");
    expect(html).toContain("contains <span");
    expect(html).not.toContain("<img");
  });

  it("draws a large eval 500 rows at a time, and says how many more there are", () => {
    const many = Array.from({ length: 1_200 }, (_, index) => result(`case ${index + 1}`));
    const html = render(detail(many, 1_200, "completed"));
    expect(html.match(/<tr /g)).toHaveLength(1 + 500);
    expect(html).toContain("Showing 500 of 1,200 rows.");
    expect(html).toContain("Show 500 more");
  });
});
