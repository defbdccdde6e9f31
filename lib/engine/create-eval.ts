import { posix } from "node:path";
import type { CreateEvalInput, EvalSummary } from "@/lib/api/evals";
import { hashText } from "@/lib/core/cache-key";
import { formatConfigProblem, parseEvalConfig, type EvalConfig } from "@/lib/core/eval/config";
import { formatTemplate, pythonStr, TemplateError } from "@/lib/core/eval/format-template";
import { routeModel } from "@/lib/core/eval/model-route";
import { parsePromptFile, type EvalPrompt } from "@/lib/core/eval/prompt-file";
import { asUser } from "@/lib/db/as-user";
import type { Database } from "@/lib/db/database";
import type { EvalPlan, EvalRoute, EvalTestCaseRow } from "@/lib/db/evals/eval-plan";
import { getEvalSummary } from "@/lib/db/evals/get-eval-summary";
import { insertEvalCells } from "@/lib/db/evals/insert-eval-cells";
import { insertEvalTestCases } from "@/lib/db/evals/insert-eval-test-cases";
import { countQueuedCells } from "@/lib/db/runs/count-queued-cells";
import { insertPromptVersion } from "@/lib/db/runs/insert-prompt-version";
import { insertRun } from "@/lib/db/runs/insert-run";
import { queuePlannedRun } from "@/lib/db/runs/queue-planned-run";
import { providerFactories } from "@/lib/providers/provider-factories";
import { InvalidInputError, TooLargeError } from "./errors";
import { checkCellCount, checkPromptSize, checkQueuedCells, checkRenderedSize, runLimitsFromEnv, type RunLimits } from "./run-limits";

/**
 * The most characters of rendered input an eval stores (each prompt x test case once, with its
 * test cases): far above any real suite, low enough that one request cannot fill the database.
 */
export const MAX_EVAL_RENDERED_CHARS = 50_000_000;

/** What planning an eval needs. */
export interface CreateEvalDeps {
  db: Database;
  limits?: RunLimits;
}

/** An eval's request read and checked: everything its run needs, before any query. */
export interface CheckedEval {
  plan: EvalPlan;
  prompts: EvalPrompt[];
  /** Column i's provider and model, for plan.models[i]. */
  routes: EvalRoute[];
  testCases: EvalTestCaseRow[];
}

/**
 * Reads an eval's config and prompt files as specs/eval-config.md does: every problem of the
 * config with its line (a 400), each prompt file taken from the request's files by the path the
 * config writes (a path missing from them is a 400 naming it: the server never reads a path of
 * a config), then each prompt's template rendered with each test case's inputs, a case that
 * cannot render keeping its error for its results. Sizes are checked before anything is stored.
 */
export function checkEval(input: CreateEvalInput, limits: RunLimits = runLimitsFromEnv()): CheckedEval {
  const providerIds = Object.keys(providerFactories);
  const parsed = parseEvalConfig(input.config, { fileName: input.configName, modelOverride: input.model ?? null, providerIds });
  const warnings = parsed.warnings.map((problem) => formatConfigProblem(problem, input.configName));
  if (!parsed.ok) {
    throw new InvalidInputError(parsed.errors.map((problem) => formatConfigProblem(problem, input.configName)).join("\n"), "config");
  }
  const config: EvalConfig = withTags(parsed.config, input.tags);
  const prompts = config.prompts.map((source) => {
    if (source.kind === "inline") return source.prompt;
    const text = promptFileText(input.files, source.path);
    if (text === null) {
      throw new InvalidInputError(
        `${formatConfigProblem({ message: `FileNotFoundError: ${source.path}`, path: "", line: source.line }, input.configName)} ` +
          `(prompt file paths are relative to the config file; send the file's text in files["${source.path}"])`,
        "files",
      );
    }
    const prompt = parsePromptFile(text, { fileName: source.path });
    warnings.push(...prompt.warnings.map((problem) => formatConfigProblem(problem, source.path)));
    if (!prompt.ok)
      throw new InvalidInputError(prompt.errors.map((problem) => formatConfigProblem(problem, source.path)).join("\n"), "files");
    return prompt.prompt;
  });
  for (const prompt of prompts) {
    checkPromptSize(
      { field: "config", what: `prompt ${prompt.name}`, length: prompt.template.length + (prompt.system?.length ?? 0) },
      limits,
    );
  }
  // Every prompt on every model: the cells are counted before anything is rendered.
  checkCellCount(
    { field: "config", rows: config.test_cases.length, columns: config.models.length * prompts.length, trials: config.repeat },
    limits,
  );

  const routes = config.models.map((name) => route(name, providerIds));
  const judges: Record<string, EvalRoute> = {};
  for (const metric of config.metrics) {
    if (metric.type === "llm_judge" && metric.model !== null) judges[metric.name] = route(metric.model, providerIds);
  }
  const testCases: EvalTestCaseRow[] = config.test_cases.map((testCase) => ({
    name: testCase.name,
    expected_contains: testCase.expected_contains,
    expected_not_contains: testCase.expected_not_contains,
    expected_output: testCase.expected_output,
    tags: testCase.tags,
    inputs: Object.fromEntries(Object.entries(testCase.inputs).map(([key, value]) => [key, pythonStr(value)])),
    rendered: prompts.map((prompt) => render(prompt, testCase.inputs, testCase.name)),
  }));
  // Each rendered input (system prompt included) within the per-cell limit, all of them within the run's.
  const lengths = testCases.flatMap((testCase) =>
    testCase.rendered.map((rendered, variant) =>
      "input" in rendered ? rendered.input.length + (prompts[variant].system?.length ?? 0) : 0,
    ),
  );
  checkRenderedSize({ field: "config", rowField: null, rowLengths: lengths, columns: config.models.length, trials: config.repeat }, limits);
  const stored = lengths.reduce((sum, length) => sum + length, 0);
  if (stored > MAX_EVAL_RENDERED_CHARS) {
    throw new TooLargeError(
      `The prompts render to ${stored.toLocaleString("en-US")} characters over the test cases; at most ${MAX_EVAL_RENDERED_CHARS.toLocaleString("en-US")} run in one eval. Use fewer or shorter test cases or prompts.`,
      "config",
    );
  }

  return {
    plan: {
      configName: input.configName,
      prompts: prompts.map(({ name, description, version, system }) => ({ name, description, version, system })),
      models: config.models,
      max_tokens: config.max_tokens,
      temperature: config.temperature,
      evaluation_threshold: config.evaluation_threshold,
      repeat: config.repeat,
      metrics: config.metrics,
      judges,
      testCases: testCases.length,
      warnings,
    },
    prompts,
    routes,
    testCases,
  };
}

/** The config with only the test cases that have any of tags (--tags); all of them without tags. */
function withTags(config: EvalConfig, tags: string[] | undefined): EvalConfig {
  if (!tags) return config;
  const test_cases = config.test_cases.filter((testCase) => testCase.tags.some((tag) => tags.includes(tag)));
  if (test_cases.length === 0) {
    const known = [...new Set(config.test_cases.flatMap((testCase) => testCase.tags))];
    throw new InvalidInputError(
      `No test cases have any of the tags ${tags.join(", ")}; the config's tags are ${known.length > 0 ? known.join(", ") : "none"}.`,
      "tags",
    );
  }
  return { ...config, test_cases };
}

/** The text of the prompt file at path as the config writes it, else at its normalized path (./a.yaml is a.yaml). */
function promptFileText(files: Record<string, string>, path: string): string | null {
  if (Object.hasOwn(files, path)) return files[path];
  const normalized = posix.normalize(path.replace(/\\/g, "/"));
  for (const [key, text] of Object.entries(files)) {
    if (posix.normalize(key.replace(/\\/g, "/")) === normalized) return text;
  }
  return null;
}

function route(name: string, providerIds: readonly string[]): EvalRoute {
  const routed = routeModel(name, providerIds);
  // parseEvalConfig checked every name against the same providers.
  if (!routed.ok) throw new InvalidInputError(routed.error, "config");
  return routed.route;
}

function render(
  prompt: EvalPrompt,
  inputs: Parameters<typeof formatTemplate>[1],
  testCaseName: string,
): { input: string } | { error: string } {
  try {
    return { input: formatTemplate(prompt.template, inputs, testCaseName) };
  } catch (error) {
    if (error instanceof TemplateError) return { error: error.message };
    throw error;
  }
}

/**
 * Creates an eval run for userId: kind `eval`, each prompt an immutable prompt version (a cell's
 * variant), one column per model (max_tokens and temperature its params), the test cases with
 * their rendered inputs as a dataset (a cell's row), and one cell per prompt x model x test case
 * x trial, queued in one transaction. The engine runs it like any run; its cells are scored by
 * the spec's rules (execute-eval-cell.ts).
 */
export async function createEval(
  { db, limits = runLimitsFromEnv() }: CreateEvalDeps,
  { userId, input }: { userId: string; input: CreateEvalInput },
): Promise<EvalSummary> {
  const checked = checkEval(input, limits);
  const { plan } = checked;
  const cells = plan.prompts.length * plan.models.length * plan.testCases * plan.repeat;
  return asUser(db, userId, async (tx) => {
    checkQueuedCells({ queued: await countQueuedCells(tx, { userId }), adding: cells }, limits);
    const promptVersionIds: string[] = [];
    for (const prompt of checked.prompts) {
      promptVersionIds.push(
        await insertPromptVersion(tx, {
          promptId: null,
          version: 1,
          name: prompt.name,
          type: "generator",
          text: prompt.template,
          textHash: hashText(prompt.template),
        }),
      );
    }
    const datasetId = await insertEvalTestCases(tx, { name: input.configName, testCases: checked.testCases });
    const runId = await insertRun(tx, {
      kind: "eval",
      promptId: null,
      promptVersionId: promptVersionIds[0],
      graderPromptId: null,
      graderVersionId: null,
      graderModel: null,
      datasetId,
      rowCount: plan.testCases,
      trials: plan.repeat,
      concurrency: input.concurrency,
      providerConcurrency: {},
      maxAttempts: input.retries + 1,
      timeoutMs: Math.round(input.timeoutSeconds * 1000),
      cache: input.cache,
      budgetUsd: null,
      budgetMode: "off",
      columns: checked.routes.map((target) => ({
        ...target,
        params: { maxTokens: plan.max_tokens, temperature: plan.temperature },
        estimatedCostPerCell: null,
      })),
      kindConfig: { eval: plan },
    });
    await insertEvalCells(tx, { runId, promptVersionIds, testCases: plan.testCases, trials: plan.repeat });
    await queuePlannedRun(tx, { runId });
    return (await getEvalSummary(tx, { id: runId }))!;
  });
}
