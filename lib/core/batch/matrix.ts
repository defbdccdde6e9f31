/**
 * Matrix files of an image batch run (spec: image-batch-runs.md, "Matrix Definition", schema v1),
 * read as YAML 1.2 (a JSON file is valid YAML) and checked with zod. Expansion follows the
 * issue's decisions: each block's keys vary in the order written, the last fastest, the keys of
 * provider_options counting where provider_options stands; defaults fill every job; exclude drops
 * the jobs matching all of its given keys; include entries follow all blocks, never excluded;
 * duplicates are dropped; jobs go prompt by prompt, numbered j-000001, ...
 */
import { isMap, LineCounter, parseDocument, type Document } from "yaml";
import { z } from "zod";
import type { BatchPrompt } from "@/lib/core/batch/prompts";

export type ParamValue = string | number | boolean | null;
export type ProviderOptions = Record<string, unknown>;

export interface JobParams {
  provider: string;
  model: string;
  n: number;
  provider_options: ProviderOptions;
  [key: string]: unknown;
}

export interface BatchJob {
  job_id: string;
  prompt_id: string;
  prompt: string;
  params: JobParams;
}

export const BUDGET_MODES = ["estimate", "strict", "off"] as const;
export type BudgetMode = (typeof BUDGET_MODES)[number];

export interface MatrixLimits {
  concurrency?: number;
  provider_concurrency?: Record<string, number>;
  budget_usd?: number | null;
  budget_mode?: BudgetMode;
}

export interface MatrixDefinition {
  version: 1;
  defaults: Record<string, unknown>;
  matrix: Record<string, unknown>[];
  include: Record<string, unknown>[];
  exclude: Record<string, unknown>[];
  limits: MatrixLimits;
}

/** Most jobs one run may plan (prompts x combinations); counted before anything is expanded. */
export const MAX_JOBS = 50_000;
/** A plan above this many jobs is allowed but warned about. */
export const LARGE_PLAN_JOBS = 1_000;
/** Most images one job may ask for (n). */
export const MAX_IMAGES_PER_JOB = 10;
/** Largest matrix file read. */
export const MAX_MATRIX_BYTES = 256 * 1024;

export class MatrixFileError extends Error {
  constructor(
    readonly file: string,
    readonly yamlPath: string,
    readonly line: number | null,
    readonly problem: string,
  ) {
    super(`${file}${line === null ? "" : `, line ${line}`}${yamlPath ? `, at ${yamlPath}` : ""}: ${problem}`);
    this.name = "MatrixFileError";
  }
}

const scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);
const listOrScalar = z.union([scalar, z.array(scalar).min(1, "an empty list makes no jobs: give at least one value")]);
const options = z.record(z.string(), z.unknown());

const block = z
  .object({
    provider: listOrScalar.optional(),
    model: listOrScalar.optional(),
    provider_options: z.record(z.string(), listOrScalar).optional(),
  })
  .catchall(listOrScalar);

const single = z.object({ provider_options: options.optional() }).catchall(z.unknown());

const limits = z
  .object({
    concurrency: z.number().int().min(1).max(64).optional(),
    provider_concurrency: z.record(z.string(), z.number().int().min(1).max(64)).optional(),
    budget_usd: z.number().min(0).nullable().optional(),
    budget_mode: z.enum(BUDGET_MODES).optional(),
  })
  .strict();

const matrixSchema = z
  .object({
    version: z.number(),
    defaults: z.record(z.string(), z.unknown()).nullable().optional(),
    matrix: z.array(block).optional(),
    include: z.array(single).nullable().optional(),
    exclude: z
      .array(z.object({ provider_options: options.optional() }).catchall(z.unknown()))
      .nullable()
      .optional(),
    limits: limits.nullable().optional(),
  })
  .strict();

function pathText(path: readonly (string | number)[]): string {
  return path.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? p : `.${p}`)).join("");
}

/** The line of the deepest node of `path` that the document has. */
function lineOf(doc: Document, counter: LineCounter, path: readonly (string | number)[]): number | null {
  for (let depth = path.length; depth >= 0; depth--) {
    const node = doc.getIn(path.slice(0, depth), true) as { range?: [number, number, number] } | undefined;
    if (node && typeof node === "object" && node.range) return counter.linePos(node.range[0]).line;
  }
  return null;
}

/** Reads and checks a matrix file; every problem names the file, the YAML path, its line and what to do. */
export function parseMatrix(text: string, file: string): MatrixDefinition {
  if (text.length > MAX_MATRIX_BYTES) {
    throw new MatrixFileError(file, "", null, `larger than ${MAX_MATRIX_BYTES} bytes: split the run into smaller matrices`);
  }
  const counter = new LineCounter();
  const doc = parseDocument(text.replace(/^\uFEFF/, ""), { version: "1.2", lineCounter: counter, uniqueKeys: true });
  if (doc.errors.length > 0) {
    const e = doc.errors[0];
    const line = counter.linePos(e.pos[0]).line;
    throw new MatrixFileError(file, "", line, `not valid YAML or JSON (${e.code}): fix the syntax there`);
  }
  const raw: unknown = doc.toJS({ maxAliasCount: 100 });
  const fail = (path: (string | number)[], problem: string): never => {
    throw new MatrixFileError(file, pathText(path), lineOf(doc, counter, path), problem);
  };
  if (!isMap(doc.contents)) fail([], "a matrix file is a mapping with version: 1 and a matrix list");
  const version = (raw as Record<string, unknown>).version;
  if (version === undefined) fail(["version"], "version is missing: add `version: 1` at the top");
  if (version !== 1) fail(["version"], `unknown schema version ${JSON.stringify(version)}: this Parallaxr reads version 1`);

  const parsed = matrixSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue.path.filter((p): p is string | number => typeof p !== "symbol");
    const what =
      issue.code === "unrecognized_keys"
        ? `unknown key ${issue.keys.map((k) => `"${k}"`).join(", ")}: schema v1 knows version, defaults, matrix, include, exclude, limits` +
          (path[0] === "limits" ? " (limits: concurrency, provider_concurrency, budget_usd, budget_mode)" : "")
        : issue.code === "invalid_union"
          ? "expected a value (text, number, true/false or null) or a list of values: fix this value"
          : `${issue.message}: fix this value`;
    fail(path, what);
  }
  // zod puts an object's declared keys before the others; the order written is the run order, so the
  // checked file is used as read.
  const m = raw as z.infer<typeof matrixSchema>;
  const blocks = (m.matrix ?? []) as Record<string, unknown>[];
  const include = (m.include ?? []) as Record<string, unknown>[];
  if (blocks.length === 0 && include.length === 0) {
    fail(["matrix"], "no matrix blocks and no include entries: add a block with a provider and a model");
  }
  const needProviderAndModel = (list: Record<string, unknown>[], key: string) =>
    list.forEach((entry, i) => {
      for (const k of ["provider", "model"]) {
        if (entry[k] === undefined || entry[k] === null) {
          fail([key, i], `this ${key === "matrix" ? "block" : "entry"} has no ${k}: every job needs a provider and a model`);
        }
      }
    });
  needProviderAndModel(blocks, "matrix");
  needProviderAndModel(include, "include");
  const defaults = m.defaults ?? {};
  const checkValues = (entry: Record<string, unknown>, path: (string | number)[]) => {
    const list = (v: unknown) => (Array.isArray(v) ? v : [v]);
    for (const k of ["provider", "model"]) {
      if (entry[k] !== undefined && !list(entry[k]).every((v) => typeof v === "string" && v.trim() !== "")) {
        fail([...path, k], `${k} must be a name (text), e.g. ${k === "provider" ? "openai" : "gpt-image-1"}`);
      }
    }
    if (
      entry.n !== undefined &&
      !list(entry.n).every((v) => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= MAX_IMAGES_PER_JOB)
    ) {
      fail([...path, "n"], `n is the number of images a job makes: a whole number from 1 to ${MAX_IMAGES_PER_JOB}`);
    }
  };
  checkValues(defaults, ["defaults"]);
  blocks.forEach((b, i) => checkValues(b, ["matrix", i]));
  include.forEach((b, i) => checkValues(b, ["include", i]));
  for (const k of ["provider", "model"]) {
    if (k in defaults) fail(["defaults", k], `${k} belongs in each block, not in defaults`);
  }
  return {
    version: 1,
    defaults,
    matrix: blocks,
    include,
    exclude: (m.exclude ?? []) as Record<string, unknown>[],
    limits: (m.limits ?? {}) as MatrixLimits,
  };
}

interface Axis {
  /** Where the value goes: ["size"] or ["provider_options", "quality"]. */
  path: [string] | [string, string];
  values: unknown[];
}

function axesOf(blockDef: Record<string, unknown>): Axis[] {
  const axes: Axis[] = [];
  const asList = (v: unknown) => (Array.isArray(v) ? v : [v]);
  for (const [key, value] of Object.entries(blockDef)) {
    if (key === "provider_options" && value && typeof value === "object" && !Array.isArray(value)) {
      for (const [opt, v] of Object.entries(value as Record<string, unknown>)) {
        axes.push({ path: ["provider_options", opt], values: asList(v) });
      }
    } else {
      axes.push({ path: [key], values: asList(value) });
    }
  }
  return axes;
}

function blockSize(blockDef: Record<string, unknown>): number {
  return axesOf(blockDef).reduce((n, a) => n * a.values.length, 1);
}

/** Combinations before exclude and duplicates: what the blocks and include entries can make at most. */
export function combinationUpperBound(def: MatrixDefinition): number {
  return def.matrix.reduce((n, b) => n + blockSize(b), 0) + def.include.length;
}

/** A job's parameters in a stable key order: provider, model, the block's keys, defaults, n, provider_options. */
function buildParams(own: Record<string, unknown>, defaults: Record<string, unknown>): JobParams {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(own)) if (k !== "provider_options") out[k] = v;
  for (const [k, v] of Object.entries(defaults)) if (k !== "provider_options" && !(k in out)) out[k] = v;
  if (!("n" in out)) out.n = 1;
  const defaultOptions = (defaults.provider_options ?? {}) as ProviderOptions;
  const ownOptions = (own.provider_options ?? {}) as ProviderOptions;
  const params = {
    provider: String(out.provider),
    model: String(out.model),
    ...out,
    provider_options: { ...defaultOptions, ...ownOptions },
  };
  return params as JobParams;
}

/** JSON with object keys sorted: equal for equal parameters whatever the key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/** Whether `params` has every key `rule` gives with an equal value (a list in the rule: any of them). */
function matchesRule(params: JobParams, rule: Record<string, unknown>): boolean {
  const same = (actual: unknown, wanted: unknown) =>
    Array.isArray(wanted) && !Array.isArray(actual)
      ? wanted.some((w) => canonicalJson(w) === canonicalJson(actual))
      : canonicalJson(wanted) === canonicalJson(actual);
  for (const [k, wanted] of Object.entries(rule)) {
    if (k === "provider_options" && wanted && typeof wanted === "object" && !Array.isArray(wanted)) {
      for (const [opt, w] of Object.entries(wanted as Record<string, unknown>)) {
        if (!(opt in params.provider_options) || !same(params.provider_options[opt], w)) return false;
      }
    } else if (!(k in params) || !same(params[k], wanted)) return false;
  }
  return true;
}

export interface Expansion {
  /** One matrix's parameter sets in run order, before prompts. */
  combinations: JobParams[];
  excluded: number;
  duplicates: number;
}

/** Expands the blocks, applies exclude, appends include, drops duplicates. */
export function expandCombinations(def: MatrixDefinition, maxCombinations = MAX_JOBS): Expansion {
  const bound = combinationUpperBound(def);
  if (bound > maxCombinations) {
    throw new Error(`the matrix makes up to ${bound} combinations, more than the ${maxCombinations} allowed: narrow its lists`);
  }
  const seen = new Set<string>();
  const combinations: JobParams[] = [];
  let excluded = 0;
  let duplicates = 0;
  const add = (params: JobParams) => {
    const key = canonicalJson(params);
    if (seen.has(key)) {
      duplicates++;
      return;
    }
    seen.add(key);
    combinations.push(params);
  };
  for (const blockDef of def.matrix) {
    const axes = axesOf(blockDef);
    const index = axes.map(() => 0);
    for (;;) {
      const own: Record<string, unknown> = {};
      axes.forEach((axis, i) => {
        const v = axis.values[index[i]];
        if (axis.path.length === 1) own[axis.path[0]] = v;
        else ((own.provider_options ??= {}) as Record<string, unknown>)[axis.path[1]] = v;
      });
      const params = buildParams(own, def.defaults);
      if (def.exclude.some((rule) => matchesRule(params, rule))) excluded++;
      else add(params);
      let i = axes.length - 1;
      while (i >= 0 && ++index[i] === axes[i].values.length) index[i--] = 0;
      if (i < 0) break;
    }
  }
  for (const entry of def.include) add(buildParams(entry, def.defaults));
  return { combinations, excluded, duplicates };
}

export const jobId = (n: number) => `j-${String(n).padStart(6, "0")}`;

export interface Plan {
  jobs: BatchJob[];
  combinations: number;
  warnings: string[];
}

/**
 * The run's jobs: prompt by prompt, each prompt through every combination, ids j-000001, ...
 * The job count is checked against `maxJobs` before a single job is built.
 */
export function planJobs(prompts: BatchPrompt[], def: MatrixDefinition, maxJobs = MAX_JOBS): Plan {
  const bound = combinationUpperBound(def) * prompts.length;
  if (bound > maxJobs) {
    throw new Error(
      `${prompts.length} prompts x up to ${combinationUpperBound(def)} combinations is ${bound} jobs, ` +
        `more than the ${maxJobs} allowed: narrow the matrix or use --prompt-range`,
    );
  }
  const expansion = expandCombinations(def, maxJobs);
  const jobs: BatchJob[] = [];
  for (const p of prompts) {
    for (const params of expansion.combinations) {
      jobs.push({ job_id: jobId(jobs.length + 1), prompt_id: p.id, prompt: p.prompt, params: structuredClone(params) });
    }
  }
  const warnings = matrixWarnings(def, expansion);
  if (jobs.length > LARGE_PLAN_JOBS) warnings.push(`${jobs.length} jobs: a large run, check the estimated cost first`);
  return { jobs, combinations: expansion.combinations.length, warnings };
}

/**
 * provider_options each provider is known to take; another key still passes through as written
 * (the spec allows unknown keys) with a warning in case it is a typo.
 */
export const KNOWN_PROVIDER_OPTIONS: Record<string, readonly string[] | "any"> = {
  openai: ["quality", "background", "output_format", "output_compression", "moderation", "n", "style", "input_fidelity"],
  gemini: ["image_size", "aspect_ratio", "temperature", "candidate_count"],
  flux: ["guidance", "steps", "safety_tolerance", "prompt_upsampling", "output_format", "raw", "aspect_ratio"],
  openrouter: ["quality", "image_size", "aspect_ratio"],
  mock: "any",
};

export function matrixWarnings(def: MatrixDefinition, expansion: Expansion): string[] {
  const warnings: string[] = [];
  const told = new Set<string>();
  for (const params of expansion.combinations) {
    const known = KNOWN_PROVIDER_OPTIONS[params.provider];
    if (known === undefined) {
      if (!told.has(params.provider)) warnings.push(`provider "${params.provider}" is not one Parallaxr knows`);
      told.add(params.provider);
      continue;
    }
    if (known === "any") continue;
    for (const opt of Object.keys(params.provider_options)) {
      const key = `${params.provider}/${opt}`;
      if (!known.includes(opt) && !told.has(key)) {
        told.add(key);
        warnings.push(`provider_options.${opt} is not an option ${params.provider} is known to take: passed through as written`);
      }
    }
  }
  if (expansion.duplicates > 0) warnings.push(`${expansion.duplicates} duplicate combination(s) dropped`);
  if (def.exclude.length > 0) {
    const unfiltered = expandCombinations({ ...def, exclude: [], include: [] }).combinations;
    def.exclude.forEach((rule, i) => {
      if (!unfiltered.some((p) => matchesRule(p, rule))) warnings.push(`exclude[${i}] matches no job`);
    });
  }
  return warnings;
}

export interface StoredJob {
  job_id: string;
  prompt_id: string;
  params: unknown;
  status: string;
}

export interface ResumeMatch {
  /** Stored jobs with the same id, prompt and parameters as the new plan's: their state carries over. */
  matched: string[];
  /** Ids in both whose prompt or parameters differ: the inputs changed, resume is refused. */
  changed: string[];
  /** New plan ids the stored run does not have. */
  added: string[];
  /** Stored ids the new plan does not have. */
  removed: string[];
}

/** Which stored jobs a new plan matches, by id AND prompt AND parameters. */
export function matchStoredJobs(stored: readonly StoredJob[], plan: readonly BatchJob[]): ResumeMatch {
  const byId = new Map(stored.map((j) => [j.job_id, j]));
  const planIds = new Set(plan.map((j) => j.job_id));
  const result: ResumeMatch = { matched: [], changed: [], added: [], removed: [] };
  for (const job of plan) {
    const old = byId.get(job.job_id);
    if (!old) result.added.push(job.job_id);
    else if (old.prompt_id === job.prompt_id && canonicalJson(old.params) === canonicalJson(job.params)) {
      result.matched.push(job.job_id);
    } else result.changed.push(job.job_id);
  }
  for (const j of stored) if (!planIds.has(j.job_id)) result.removed.push(j.job_id);
  return result;
}
