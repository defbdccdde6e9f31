/**
 * The terminal batch-run builder as data (spec: image-batch-runs.md, "Batch run builder"): five
 * steps (load prompts, load matrix, review plan, set limits, confirm and run), the fields of each,
 * and what every key does to them. `pressKey` is pure apart from the files it is handed, so the
 * unit tests run the whole builder from known states; index.ts feeds it a terminal's keys.
 */
import path from "node:path";
import { planBudget } from "@/lib/core/batch/budget";
import { planSummary, type PlanSummary } from "@/lib/core/batch/dry-run";
import { BUDGET_MODES, MAX_MATRIX_BYTES, parseMatrix, planJobs, type BudgetMode, type MatrixDefinition } from "@/lib/core/batch/matrix";
import { filterPromptRange, parsePromptSet, type BatchPrompt } from "@/lib/core/batch/prompts";
import { BATCH_FILE_NAME } from "@/lib/api/batches";
import { formatProviderConcurrency, parseProviderConcurrency, type BatchRunOptions } from "../options";
import { checkProviderSizes, MAX_PROMPT_FILE_BYTES } from "../read-batch-inputs";
import type { Key } from "./keys";
import { deleteAt, deleteBefore, insertText, moveCursor, textValue, type TextValue } from "./text-value";

/** The files the builder reads, relative to the working directory (index.ts gives the real ones). */
export interface BuilderFiles {
  /** The text of a file; throws an Error saying why not (missing, a folder, larger than maxBytes). */
  read(file: string, maxBytes: number): string;
  /** Whether a file or folder exists. */
  exists(file: string): boolean;
  /** The names of the files in the working directory. */
  list(): string[];
}

/** Largest prompt file read: the same bound as the headless flags. */
export const MAX_PROMPTS_BYTES = MAX_PROMPT_FILE_BYTES;
/** Highest global concurrency the builder takes (the same bound as a provider's cap). */
export const MAX_CONCURRENCY = 64;

export const STEPS = [
  { id: "prompts", title: "Load prompts" },
  { id: "matrix", title: "Load matrix" },
  { id: "plan", title: "Review plan" },
  { id: "limits", title: "Set limits" },
  { id: "confirm", title: "Confirm and run" },
] as const;

export type TextFieldId = "promptsPath" | "range" | "matrixPath" | "concurrency" | "providerConcurrency" | "budget" | "out";
export type FieldId = TextFieldId | "budgetMode" | "back" | "next";

/** The fields of each step in Tab order. */
export const STEP_FIELDS: readonly (readonly FieldId[])[] = [
  ["promptsPath", "range", "back", "next"],
  ["matrixPath", "back", "next"],
  ["back", "next"],
  ["concurrency", "providerConcurrency", "budget", "budgetMode", "back", "next"],
  ["out", "back", "next"],
];

const TEXT_FIELDS: readonly FieldId[] = ["promptsPath", "range", "matrixPath", "concurrency", "providerConcurrency", "budget", "out"];
export const isTextField = (field: FieldId): field is TextFieldId => TEXT_FIELDS.includes(field);

export interface LoadedPrompts {
  file: string;
  all: BatchPrompt[];
  selected: BatchPrompt[];
  /** The range applied, e.g. "3-10"; undefined for all prompts. */
  range: string | undefined;
}

export interface LoadedMatrix {
  file: string;
  def: MatrixDefinition;
}

/** The limits as the fields now give them; unset ones fall back to the matrix's limits. */
export interface Limits {
  concurrency?: number;
  providerConcurrency?: Record<string, number>;
  budgetUsd?: number;
  budgetMode: BudgetMode;
}

export interface BuilderState {
  step: number;
  /** Index into STEP_FIELDS[step]. */
  focus: number;
  text: Record<TextFieldId, TextValue>;
  budgetMode: BudgetMode;
  prompts: LoadedPrompts | null;
  matrix: LoadedMatrix | null;
  /** The plan of the loaded files under the limits last applied; null until both are loaded. */
  plan: PlanSummary | null;
  /** What went wrong with a field (or the plan), shown under it. */
  errors: Partial<Record<FieldId | "plan", string>>;
  /** Files in the working directory that fit each input, offered as a hint. */
  candidates: { prompts: string[]; matrix: string[] };
  /** The quit question is showing. */
  askQuit: boolean;
  /** Set once the builder is done: the options to run with, or quit. */
  result: { kind: "run"; options: BatchRunOptions } | { kind: "quit" } | null;
}

const fitsPrompts = (name: string) => /\.(txt|csv)$/i.test(name);
const fitsMatrix = (name: string) => /\.(ya?ml|json)$/i.test(name);

/** The builder before any key: each path field filled with the first fitting file here, if any. */
export function initialState(files: BuilderFiles): BuilderState {
  const names = files.list().sort();
  const candidates = { prompts: names.filter(fitsPrompts), matrix: names.filter(fitsMatrix) };
  const empty = textValue("");
  return {
    step: 0,
    focus: 0,
    text: {
      promptsPath: textValue(candidates.prompts[0] ?? ""),
      range: empty,
      matrixPath: textValue(candidates.matrix[0] ?? ""),
      concurrency: empty,
      providerConcurrency: empty,
      budget: empty,
      out: empty,
    },
    budgetMode: "estimate",
    prompts: null,
    matrix: null,
    plan: null,
    errors: {},
    candidates,
    askQuit: false,
    result: null,
  };
}

export const focusedField = (state: BuilderState): FieldId => STEP_FIELDS[state.step][state.focus];

const withError = (state: BuilderState, field: FieldId | "plan", error: string | undefined): BuilderState => {
  const errors = { ...state.errors };
  if (error === undefined) delete errors[field];
  else errors[field] = error;
  return { ...state, errors };
};

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The run folder keeps a copy of each input under its own name, so the name must be a plain one
 * (the headless command refuses the same names with the same words).
 */
function nameProblem(file: string): string | undefined {
  if (BATCH_FILE_NAME.test(path.basename(file))) return undefined;
  return (
    `${file}: the run folder keeps a copy of this file under its name, which must be a plain file name ` +
    `(letters, digits, ".", "_", "-", spaces; not run.json, not receipt-*, not starting with "."); rename it.`
  );
}

function loadPrompts(state: BuilderState, files: BuilderFiles): BuilderState {
  const file = state.text.promptsPath.text.trim();
  if (file === "") return withError({ ...state, prompts: null }, "promptsPath", "Type the path of a .txt or .csv prompt file.");
  if (!fitsPrompts(file)) {
    return withError({ ...state, prompts: null }, "promptsPath", `${file}: a prompt file ends in .txt or .csv.`);
  }
  const badName = nameProblem(file);
  if (badName) return withError({ ...state, prompts: null }, "promptsPath", badName);
  let all: BatchPrompt[];
  try {
    all = parsePromptSet(files.read(file, MAX_PROMPTS_BYTES), file);
  } catch (error) {
    return withError({ ...state, prompts: null }, "promptsPath", messageOf(error));
  }
  if (all.length === 0) {
    return withError(
      { ...state, prompts: null },
      "promptsPath",
      `${file}: no prompts (blank lines and lines starting with # are skipped): write one prompt a line.`,
    );
  }
  return applyRange(withError({ ...state, prompts: { file, all, selected: all, range: undefined } }, "promptsPath", undefined));
}

function applyRange(state: BuilderState): BuilderState {
  if (!state.prompts) return state;
  const range = state.text.range.text.trim();
  if (range === "")
    return withError({ ...state, prompts: { ...state.prompts, selected: state.prompts.all, range: undefined } }, "range", undefined);
  let selected: BatchPrompt[];
  try {
    selected = filterPromptRange(state.prompts.all, range);
  } catch (error) {
    return withError(state, "range", messageOf(error).replace(/^--prompt-range/, "Range"));
  }
  if (selected.length === 0) {
    return withError(state, "range", `Range ${range} selects no prompt: the file has ${state.prompts.all.length}.`);
  }
  return withError({ ...state, prompts: { ...state.prompts, selected, range } }, "range", undefined);
}

function loadMatrix(state: BuilderState, files: BuilderFiles): BuilderState {
  const file = state.text.matrixPath.text.trim();
  if (file === "") return withError({ ...state, matrix: null }, "matrixPath", "Type the path of a .yaml or .json matrix file.");
  if (!fitsMatrix(file)) {
    return withError({ ...state, matrix: null }, "matrixPath", `${file}: a matrix file ends in .yaml, .yml or .json.`);
  }
  const badName = nameProblem(file);
  if (badName) return withError({ ...state, matrix: null }, "matrixPath", badName);
  let def: MatrixDefinition;
  try {
    const text = files.read(file, MAX_MATRIX_BYTES);
    def = parseMatrix(text, file);
    // A size or n a provider cannot make is refused here, as the headless command refuses it.
    checkProviderSizes({ path: file, name: path.basename(file), text }, def);
  } catch (error) {
    return withError({ ...state, matrix: null }, "matrixPath", messageOf(error));
  }
  // The limits fields start from the matrix's limits, as the headless flags fall back to them.
  const limits = def.limits;
  const text = {
    ...state.text,
    concurrency: textValue(limits.concurrency === undefined ? "" : String(limits.concurrency)),
    providerConcurrency: textValue(limits.provider_concurrency ? formatProviderConcurrency(limits.provider_concurrency) : ""),
    budget: textValue(limits.budget_usd === undefined || limits.budget_usd === null ? "" : String(limits.budget_usd)),
  };
  const errors = { ...state.errors };
  delete errors.matrixPath;
  delete errors.concurrency;
  delete errors.providerConcurrency;
  delete errors.budget;
  return { ...state, text, errors, budgetMode: limits.budget_mode ?? "estimate", matrix: { file, def } };
}

/** The limits fields read; an unreadable field is reported on it and left unset. */
function readLimits(state: BuilderState): { limits: Limits; errors: Partial<Record<FieldId, string>> } {
  const errors: Partial<Record<FieldId, string>> = {};
  const limits: Limits = { budgetMode: state.budgetMode };
  const concurrency = state.text.concurrency.text.trim();
  if (concurrency !== "") {
    const n = /^\d{1,3}$/.test(concurrency) ? Number(concurrency) : NaN;
    if (n >= 1 && n <= MAX_CONCURRENCY) limits.concurrency = n;
    else errors.concurrency = `Concurrency "${concurrency}" is not a whole number from 1 to ${MAX_CONCURRENCY}.`;
  }
  const caps = state.text.providerConcurrency.text.trim();
  if (caps !== "") {
    try {
      limits.providerConcurrency = parseProviderConcurrency(caps);
    } catch (error) {
      errors.providerConcurrency = messageOf(error).replace(/^--provider-concurrency/, "Provider concurrency");
    }
  }
  const budget = state.text.budget.text.trim().replace(/^\$/, "");
  if (budget !== "") {
    const usd = /^\d{1,7}(\.\d{1,6})?$/.test(budget) ? Number(budget) : NaN;
    if (Number.isFinite(usd)) limits.budgetUsd = usd;
    else errors.budget = `Budget "${budget}" is not an amount in USD such as 10 or 2.50.`;
  }
  return { limits, errors };
}

/** The limits in effect: the fields, else the matrix's limits, else the defaults (3, none). */
export function effectiveLimits(state: BuilderState): {
  concurrency: number;
  providerConcurrency: Record<string, number>;
  budgetUsd: number | null;
  budgetMode: BudgetMode;
} {
  const { limits } = readLimits(state);
  const own = state.matrix?.def.limits ?? {};
  return {
    concurrency: limits.concurrency ?? own.concurrency ?? 3,
    providerConcurrency: limits.providerConcurrency ?? own.provider_concurrency ?? {},
    budgetUsd: limits.budgetUsd ?? own.budget_usd ?? null,
    budgetMode: limits.budgetMode,
  };
}

/** Recomputes the plan from the loaded files and the limits; a plan that cannot be made is an error. */
function replan(state: BuilderState): BuilderState {
  if (!state.prompts || !state.matrix) return withError({ ...state, plan: null }, "plan", undefined);
  const limits = effectiveLimits(state);
  try {
    const plan = planJobs(state.prompts.selected, state.matrix.def);
    const budget = planBudget(plan.jobs, { budgetUsd: limits.budgetUsd, mode: limits.budgetMode });
    const summary = planSummary({
      promptsFile: state.prompts.file,
      matrixFile: state.matrix.file,
      promptCount: state.prompts.selected.length,
      matrix: state.matrix.def,
      plan,
      budget,
      budgetUsd: limits.budgetUsd,
      budgetMode: limits.budgetMode,
      concurrency: limits.concurrency,
      providerConcurrency: limits.providerConcurrency,
    });
    return withError({ ...state, plan: summary }, "plan", undefined);
  } catch (error) {
    return withError({ ...state, plan: null }, "plan", messageOf(error));
  }
}

function checkOut(state: BuilderState, files: BuilderFiles): BuilderState {
  const out = state.text.out.text.trim();
  if (out === "") return withError(state, "out", "Type the folder to write the run into, e.g. runs/first.");
  if (files.exists(path.join(out, "run.json"))) {
    return withError(
      state,
      "out",
      `${out} holds a run already (run.json): choose another folder, or continue it with parallaxr batch-run --out ${out} --resume.`,
    );
  }
  return withError(state, "out", undefined);
}

/** A folder name for the run that holds no run yet: runs/<prompt file's name>, then -2, -3, ... */
function defaultOut(state: BuilderState, files: BuilderFiles): string {
  const base =
    path
      .basename(state.prompts?.file ?? "batch")
      .replace(/\.[^.]+$/, "")
      .replace(/[^A-Za-z0-9_.-]+/g, "-") || "batch";
  for (let i = 1; ; i++) {
    const candidate = `runs/${base}${i === 1 ? "" : `-${i}`}`;
    if (!files.exists(path.join(candidate, "run.json")) || i > 999) return candidate;
  }
}

/** Applies a field the user leaves or presses Enter on: loads the file, checks the value, replans. */
function applyField(state: BuilderState, field: FieldId, files: BuilderFiles): BuilderState {
  switch (field) {
    case "promptsPath": {
      const next = loadPrompts(state, files);
      return replan(next);
    }
    case "range":
      return replan(applyRange(state));
    case "matrixPath":
      return replan(loadMatrix(state, files));
    case "concurrency":
    case "providerConcurrency":
    case "budget": {
      const { errors } = readLimits(state);
      return replan(withError(state, field, errors[field]));
    }
    case "budgetMode":
      return replan(state);
    case "out":
      return checkOut(state, files);
    default:
      return state;
  }
}

const enterStep = (state: BuilderState, step: number): BuilderState => ({
  ...state,
  step,
  focus: STEP_FIELDS[step].indexOf(STEPS[step].id === "plan" ? "next" : STEP_FIELDS[step][0]),
});

const focusOn = (state: BuilderState, field: FieldId): BuilderState => ({ ...state, focus: STEP_FIELDS[state.step].indexOf(field) });

/** The run's options from the builder's choices (only what was set, so the command line says no more). */
export function optionsOf(state: BuilderState): BatchRunOptions {
  const { limits } = readLimits(state);
  const options: BatchRunOptions = {
    promptsPath: state.text.promptsPath.text.trim(),
    matrixPath: state.text.matrixPath.text.trim(),
    out: state.text.out.text.trim(),
    dryRun: false,
    resume: false,
  };
  if (limits.concurrency !== undefined) options.concurrency = limits.concurrency;
  if (limits.providerConcurrency !== undefined) options.providerConcurrency = limits.providerConcurrency;
  if (limits.budgetUsd !== undefined) options.budgetUsd = limits.budgetUsd;
  options.budgetMode = limits.budgetMode;
  if (state.prompts?.range !== undefined) options.promptRange = state.prompts.range;
  return options;
}

/** Next on each step: checks the step, then moves on (or finishes on the last). */
function next(state: BuilderState, files: BuilderFiles): BuilderState {
  switch (STEPS[state.step].id) {
    case "prompts": {
      const loaded = applyField(applyField(state, "promptsPath", files), "range", files);
      if (loaded.errors.promptsPath) return focusOn(loaded, "promptsPath");
      if (loaded.errors.range) return focusOn(loaded, "range");
      return enterStep(loaded, 1);
    }
    case "matrix": {
      const loaded = applyField(state, "matrixPath", files);
      if (loaded.errors.matrixPath || !loaded.plan) return focusOn(loaded, "matrixPath");
      return enterStep(loaded, 2);
    }
    case "plan":
      return state.plan ? enterStep(state, 3) : state;
    case "limits": {
      const { errors } = readLimits(state);
      let checked = state;
      for (const field of ["concurrency", "providerConcurrency", "budget"] as const) checked = withError(checked, field, errors[field]);
      const first = (["concurrency", "providerConcurrency", "budget"] as const).find((f) => errors[f]);
      if (first) return focusOn(checked, first);
      checked = replan(checked);
      if (!checked.plan) return checked;
      if (checked.text.out.text.trim() === "")
        checked = { ...checked, text: { ...checked.text, out: textValue(defaultOut(checked, files)) } };
      return enterStep(checkOut(checked, files), 4);
    }
    case "confirm": {
      const checked = checkOut(state, files);
      if (checked.errors.out) return focusOn(checked, "out");
      return { ...checked, result: { kind: "run", options: optionsOf(checked) } };
    }
  }
}

function back(state: BuilderState): BuilderState {
  if (state.step === 0) return { ...state, askQuit: true };
  const step = state.step - 1;
  return { ...state, step, focus: STEP_FIELDS[step].indexOf(STEPS[step].id === "plan" ? "next" : STEP_FIELDS[step][0]) };
}

/** Moves the focus by one field (wrapping), applying the field left. */
function moveFocus(state: BuilderState, by: 1 | -1, files: BuilderFiles): BuilderState {
  const applied = applyField(state, focusedField(state), files);
  const count = STEP_FIELDS[state.step].length;
  return { ...applied, focus: (state.focus + by + count) % count };
}

function editText(state: BuilderState, field: TextFieldId, edit: (value: TextValue) => TextValue): BuilderState {
  return { ...state, text: { ...state.text, [field]: edit(state.text[field]) } };
}

/** What one key does to the builder. */
export function pressKey(state: BuilderState, key: Key, files: BuilderFiles): BuilderState {
  if (state.result) return state;
  if (key.name === "ctrl-c") return { ...state, result: { kind: "quit" } };
  if (state.askQuit) {
    if (key.name === "enter" || (key.name === "char" && /^[yq]$/i.test(key.char)))
      return { ...state, askQuit: false, result: { kind: "quit" } };
    if (key.name === "escape" || (key.name === "char" && /^n$/i.test(key.char))) return { ...state, askQuit: false };
    return state;
  }
  const field = focusedField(state);
  const text = isTextField(field);
  switch (key.name) {
    case "tab":
      return moveFocus(state, key.shift ? -1 : 1, files);
    case "down":
      return moveFocus(state, 1, files);
    case "up":
      return moveFocus(state, -1, files);
    case "escape":
      return back(state);
    case "enter":
      if (field === "back") return back(state);
      if (field === "next") return next(state, files);
      {
        const applied = applyField(state, field, files);
        if (applied.errors[field]) return applied;
        // Enter on the last field of a step goes on to Next, past Back.
        const after = STEP_FIELDS[state.step][state.focus + 1];
        return after === "back" ? focusOn(applied, "next") : { ...applied, focus: state.focus + 1 };
      }
    case "left":
    case "right": {
      const by = key.name === "left" ? -1 : 1;
      if (text) return editText(state, field, (v) => moveCursor(v, v.cursor + by));
      if (field === "budgetMode") {
        const i = BUDGET_MODES.indexOf(state.budgetMode);
        return replan({ ...state, budgetMode: BUDGET_MODES[(i + by + BUDGET_MODES.length) % BUDGET_MODES.length] });
      }
      if (field === "back" && by === 1) return focusOn(state, "next");
      if (field === "next" && by === -1) return focusOn(state, "back");
      return state;
    }
    case "home":
    case "end":
      return text ? editText(state, field, (v) => moveCursor(v, key.name === "home" ? 0 : v.text.length)) : state;
    case "backspace":
      return text ? editText(state, field, deleteBefore) : state;
    case "delete":
      return text ? editText(state, field, deleteAt) : state;
    case "ctrl-u":
      return text ? editText(state, field, () => textValue("")) : state;
    case "char":
      if (text) return editText(state, field, (v) => insertText(v, key.char));
      if (/^q$/i.test(key.char)) return { ...state, askQuit: true };
      if (field === "budgetMode") {
        const mode = BUDGET_MODES.find((m) => m.startsWith(key.char.toLowerCase()));
        return mode ? replan({ ...state, budgetMode: mode }) : state;
      }
      return state;
  }
}
