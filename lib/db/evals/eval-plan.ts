import type { MetricConfig } from "@/lib/core/eval/metrics";

/** A provider and the model id it knows, as an eval's model name routes (lib/core/eval/model-route.ts). */
export interface EvalRoute {
  provider: string;
  model: string;
}

/**
 * What an eval run keeps in runs.config.eval: the config as checked (defaults filled in), each
 * prompt's own fields, the models as the config names them (column i is models[i]) and where
 * each llm_judge metric is sent. The worker reads it; nothing in it is parsed from YAML again.
 */
export interface EvalPlan {
  configName: string;
  prompts: Array<{ name: string; description: string; version: string; system: string | null }>;
  /** The names as written (claude-sonnet-4-20250514, mock/echo): each EvalRun's model. */
  models: string[];
  max_tokens: number;
  temperature: number;
  evaluation_threshold: number;
  repeat: number;
  metrics: MetricConfig[];
  /** Where each llm_judge metric with its own model is sent, by metric name; without one, the cell's model judges. */
  judges: Record<string, EvalRoute>;
  testCases: number;
  /** The config's warnings, as lines ("eval.yaml, line 3: Unknown key ..."). */
  warnings: string[];
}

/**
 * One test case as its dataset row holds it (what a claimed cell receives as its variables):
 * the spec's fields and, per prompt (a cell's variant), the template rendered with the case's
 * inputs, or the error that kept it from rendering ("Missing input variable x in test case y").
 */
export interface EvalTestCaseRow {
  name: string;
  expected_contains: string[];
  expected_not_contains: string[];
  expected_output: string | null;
  tags: string[];
  /** The inputs as Python's str() writes them: what the mock model reports. */
  inputs: Record<string, string>;
  rendered: Array<{ input: string } | { error: string }>;
}
