"use client";

import { useDeferredValue, useId, useMemo, useState } from "react";
import type { EditorProblem } from "@/components/evals/config-editor";
import { DialogDescription, DialogShell, DialogTitle } from "@/components/ui/dialog-shell";
import { formatUsd } from "@/lib/client/format-money";
import { BUDGET_MODES, combinationUpperBound, type MatrixDefinition } from "@/lib/core/batch/matrix";
import type { CreateBatchInput } from "@/lib/api/batches";
import {
  buildPlan,
  formatProviderConcurrency,
  promptPreview,
  DEFAULT_CONCURRENCY,
  type BatchInputFile,
  type BuiltPlan,
  type InputProblem,
  type LimitsInput,
} from "./build-plan";
import { flattenParams, paramText } from "./gallery-filter";
import { InputFileField, readInputFile } from "./input-file-field";

/** What the builder opens on: empty, or a past batch's inputs ("Re-run with tweaks"). */
export interface BuilderInputs {
  prompts: BatchInputFile;
  matrix: BatchInputFile;
  range?: string;
}

const EMPTY_LIMITS: LimitsInput = { concurrency: "", providerConcurrency: "", budgetUsd: "", budgetMode: "" };
/** Rows of the expanded combinations shown; the count says how many more there are. */
const SHOWN_COMBINATIONS = 100;

const isPromptFile = (name: string) => /\.(txt|csv)$/i.test(name);
const isMatrixFile = (name: string) => /\.(ya?ml|json)$/i.test(name);

const fieldClass = "rounded-md border border-zinc-300 px-2 py-1 text-sm font-normal text-zinc-900";

/**
 * The batch run builder in the browser (spec: image-batch-runs.md, "Batch run builder"): 1. the
 * prompts, with their count, first and last prompts and the range filter; 2. the matrix, with its
 * blocks, the expanded combinations and the warnings, errors marked at their line; 3. the plan with
 * the estimated cost (an unknown price says unknown); 4. the limits; 5. confirm and run.
 */
export function BatchBuilder({
  initial,
  starting,
  onStart,
}: {
  initial: BuilderInputs | null;
  starting: boolean;
  onStart(body: CreateBatchInput): void;
}) {
  const [prompts, setPrompts] = useState<BatchInputFile>(initial?.prompts ?? { name: "prompts.txt", text: "" });
  const [matrix, setMatrix] = useState<BatchInputFile>(initial?.matrix ?? { name: "matrix.yaml", text: "" });
  const [range, setRange] = useState(initial?.range ?? "");
  const [limits, setLimits] = useState<LimitsInput>(EMPTY_LIMITS);
  const [confirming, setConfirming] = useState(false);
  const [dropNote, setDropNote] = useState<string | null>(null);
  const promptsProblemsId = useId();
  const matrixProblemsId = useId();
  const rangeId = useId();
  const rangeHintId = useId();

  const input = useDeferredValue({ prompts, matrix, range, limits });
  const built = useMemo(
    () =>
      buildPlan({
        prompts: input.prompts.text.trim() === "" ? null : input.prompts,
        matrix: input.matrix.text.trim() === "" ? null : input.matrix,
        range: input.range,
        limits: input.limits,
      }),
    [input],
  );
  const settled = input.prompts === prompts && input.matrix === matrix && input.range === range && input.limits === limits;
  const problemsOf = (file: InputProblem["file"]) => built.problems.filter((problem) => problem.file === file);
  const toEditor = (list: InputProblem[]): EditorProblem[] =>
    list.map((problem) => ({ line: problem.line, message: problem.message, severity: "error" as const }));

  const drop = async (files: File[]) => {
    const skipped: string[] = [];
    for (const file of files) {
      if (isPromptFile(file.name)) setPrompts(await readInputFile(file));
      else if (isMatrixFile(file.name)) setMatrix(await readInputFile(file));
      else skipped.push(file.name);
    }
    setDropNote(
      skipped.length === 0 ? null : `Not read: ${skipped.join(", ")}. Prompts are .txt or .csv files, matrices .yaml, .yml or .json.`,
    );
  };

  const ready = settled && built.summary !== null && built.problems.length === 0 && built.summary.jobs_to_run > 0;
  const start = () => {
    if (!ready) return;
    const body: CreateBatchInput = { prompts, matrix };
    if (range.trim() !== "") body.promptRange = range.trim();
    if (limits.concurrency.trim() !== "") body.concurrency = built.limits!.concurrency;
    if (limits.providerConcurrency.trim() !== "") body.providerConcurrency = built.limits!.providerConcurrency;
    if (limits.budgetUsd.trim() !== "") body.budgetUsd = built.limits!.budgetUsd;
    if (limits.budgetMode !== "") body.budgetMode = limits.budgetMode;
    setConfirming(false);
    onStart(body);
  };

  return (
    <div className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_minmax(340px,420px)]">
      <div className="flex min-w-0 flex-col gap-5">
        <InputFileField
          step={1}
          title="Prompts"
          hint="A .txt file with one prompt a line (blank lines and # comments skipped), or a .csv file with a prompt column (id and metadata optional)."
          accept=".txt,.csv,text/plain,text/csv"
          file={prompts}
          onChange={setPrompts}
          onDropFiles={(files) => void drop(files)}
          problems={toEditor(problemsOf("prompts"))}
          placeholder="One prompt a line, or a CSV with a prompt column."
          plainText
          describedBy={promptsProblemsId}
        >
          <div id={promptsProblemsId} aria-live="polite" className="flex flex-col gap-2">
            <ProblemList label="Problems in the prompts" problems={problemsOf("prompts")} />
            <PromptsPreview built={built} hasText={prompts.text.trim() !== ""} />
          </div>
          <div className="flex flex-wrap items-end gap-3">
            <label htmlFor={rangeId} className="flex flex-col gap-0.5 text-sm font-medium text-zinc-800">
              Prompt range
              <input
                id={rangeId}
                value={range}
                onChange={(event) => setRange(event.target.value)}
                placeholder="all"
                aria-describedby={rangeHintId}
                spellCheck={false}
                className={`w-32 font-mono ${fieldClass}`}
              />
            </label>
            <p id={rangeHintId} className="pb-1.5 text-xs text-zinc-600">
              FROM-TO by position, e.g. 3-10 (the CLI&apos;s <code className="font-mono">--prompt-range</code>); blank runs every prompt.
            </p>
          </div>
          <ProblemList label="Problems in the range" problems={problemsOf("range")} />
        </InputFileField>

        <InputFileField
          step={2}
          title="Matrix"
          hint="A .yaml or .json file, schema v1: version, defaults, matrix blocks (lists vary, scalars stay), include, exclude, limits."
          accept=".yaml,.yml,.json,text/yaml,application/json"
          file={matrix}
          onChange={setMatrix}
          onDropFiles={(files) => void drop(files)}
          problems={toEditor(problemsOf("matrix"))}
          placeholder={"version: 1\nmatrix:\n  - provider: mock\n    model: mock-image\n    size: [256x256, 512x512]"}
          plainText={false}
          describedBy={matrixProblemsId}
        >
          <div id={matrixProblemsId} aria-live="polite" className="flex flex-col gap-2">
            <ProblemList label="Problems in the matrix" problems={problemsOf("matrix")} />
            <WarningList warnings={built.warnings} />
          </div>
          {built.matrix && <MatrixBlocks matrix={built.matrix} />}
          {built.matrix && <Combinations built={built} />}
        </InputFileField>
        {dropNote && (
          <p role="status" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
            {dropNote}
          </p>
        )}
      </div>

      <div className="flex min-w-0 flex-col gap-5">
        <PlanPanel built={built} />
        <LimitsPanel limits={limits} onChange={setLimits} matrix={built.matrix} problems={problemsOf("limits")} />
        <section aria-labelledby="batch-confirm-heading" className="flex flex-col gap-2 rounded-lg border border-zinc-200 bg-white p-4">
          <h2 id="batch-confirm-heading" className="text-sm font-semibold text-zinc-900">
            <span className="text-zinc-500">5.</span> Confirm and run
          </h2>
          <button
            type="button"
            disabled={!ready || starting}
            onClick={() => setConfirming(true)}
            className="self-start rounded-md bg-accent-strong px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-accent-strong/90 disabled:cursor-not-allowed disabled:bg-zinc-300 disabled:text-zinc-600"
          >
            {starting ? "Starting…" : "Review and run"}
          </button>
          {!ready && (
            <p className="text-xs text-zinc-600">
              {prompts.text.trim() === "" || matrix.text.trim() === ""
                ? "Load or write both the prompts and the matrix to run."
                : built.problems.length > 0
                  ? "Fix the problems above to run."
                  : built.summary?.jobs_to_run === 0
                    ? "Every job would be skipped: raise the budget or change the budget mode."
                    : "Checking…"}
            </p>
          )}
        </section>
      </div>

      <DialogShell open={confirming} onClose={() => setConfirming(false)} className="w-[min(480px,94vw)] p-5" described>
        {built.summary && built.limits && (
          <div className="flex flex-col gap-3">
            <DialogTitle className="text-base font-semibold text-zinc-900">Start this batch?</DialogTitle>
            <DialogDescription className="text-sm text-zinc-700">
              {built.summary.jobs_to_run} of {built.summary.jobs} {built.summary.jobs === 1 ? "job" : "jobs"} will run (
              {built.summary.images} {built.summary.images === 1 ? "image" : "images"} planned), estimated{" "}
              {formatUsd(built.summary.estimated_cost_usd)}
              {unknownJobs(built) > 0 ? ` plus ${unknownJobs(built)} jobs at an unknown price` : ""};{" "}
              {built.limits.budgetUsd === null ? "no budget" : `budget ${formatUsd(built.limits.budgetUsd)}`}, mode{" "}
              {built.limits.budgetMode}, {built.limits.concurrency} at once.
            </DialogDescription>
            <div className="flex justify-end gap-2">
              <button
                type="button"
                onClick={() => setConfirming(false)}
                className="rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm font-medium text-zinc-800 hover:bg-zinc-50"
              >
                Back
              </button>
              <button
                type="button"
                onClick={start}
                className="rounded-md bg-accent-strong px-3 py-1.5 text-sm font-semibold text-white hover:bg-accent-strong/90"
              >
                Start batch
              </button>
            </div>
          </div>
        )}
      </DialogShell>
    </div>
  );
}

const unknownJobs = (built: BuiltPlan) => built.summary?.breakdown.reduce((n, row) => n + row.unknown_price_jobs, 0) ?? 0;

function ProblemList({ label, problems }: { label: string; problems: InputProblem[] }) {
  if (problems.length === 0) return null;
  return (
    <ul aria-label={label} className="flex flex-col gap-1 rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800">
      {problems.map((problem, index) => (
        <li key={index} className="break-words">
          {problem.message}
        </li>
      ))}
    </ul>
  );
}

function WarningList({ warnings }: { warnings: string[] }) {
  if (warnings.length === 0) return null;
  return (
    <ul
      aria-label="Warnings"
      className="flex flex-col gap-1 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
    >
      {warnings.map((warning, index) => (
        <li key={index} className="break-words">
          Warning: {warning}
        </li>
      ))}
    </ul>
  );
}

function PromptsPreview({ built, hasText }: { built: BuiltPlan; hasText: boolean }) {
  if (!hasText) return <p className="text-sm text-zinc-600">No prompts yet: choose or drop a file, or write them above.</p>;
  if (built.promptTotal === 0) return null;
  const { first, last, hidden } = promptPreview(built.prompts);
  const row = (prompt: (typeof first)[number]) => (
    <li key={prompt.id} className="flex gap-3">
      <span className="w-16 shrink-0 font-mono text-xs leading-5 text-zinc-600">{prompt.id}</span>
      <span className="min-w-0 flex-1 truncate" title={prompt.prompt}>
        {prompt.prompt}
      </span>
    </li>
  );
  return (
    <div className="flex flex-col gap-1.5">
      <p className="text-sm font-medium text-zinc-900">
        {built.prompts.length === built.promptTotal
          ? `${built.promptTotal} ${built.promptTotal === 1 ? "prompt" : "prompts"}`
          : `${built.prompts.length} of ${built.promptTotal} prompts in the range`}
      </p>
      {built.prompts.length > 0 && (
        <ol aria-label="First and last prompts" className="flex flex-col gap-0.5 text-sm text-zinc-800">
          {first.map(row)}
          {hidden > 0 && <li className="pl-[76px] text-xs text-zinc-600">… {hidden} more …</li>}
          {last.map(row)}
        </ol>
      )}
    </div>
  );
}

/** A block's keys and values as the file writes them, and the combinations it makes. */
function MatrixBlocks({ matrix }: { matrix: MatrixDefinition }) {
  // Keys and values as the block writes them: a list as [a, b], provider_options' keys inline.
  const value = (v: unknown) => (Array.isArray(v) ? `[${v.map(paramText).join(", ")}]` : paramText(v));
  const describe = (entry: Record<string, unknown>) =>
    Object.entries(entry)
      .flatMap(([key, v]) =>
        key === "provider_options" && v && typeof v === "object" && !Array.isArray(v)
          ? Object.entries(v as Record<string, unknown>).map(([option, w]) => `${option}: ${value(w)}`)
          : [`${key}: ${value(v)}`],
      )
      .join(" · ");
  const sizes = matrix.matrix.map((block) => combinationUpperBound({ ...matrix, matrix: [block], include: [] }));
  return (
    <div className="flex flex-col gap-1.5">
      <h3 className="text-sm font-semibold text-zinc-900">Matrix blocks</h3>
      <ol aria-label="Matrix blocks" className="flex flex-col gap-1 text-sm text-zinc-800">
        {matrix.matrix.map((block, index) => (
          <li key={index} className="flex gap-3 rounded-md bg-zinc-50 px-2 py-1">
            <span className="w-16 shrink-0 text-xs font-medium leading-5 text-zinc-600">Block {index + 1}</span>
            <span className="min-w-0 flex-1 break-words font-mono text-[13px]">{describe(block)}</span>
            <span className="shrink-0 text-xs leading-5 text-zinc-700">
              {sizes[index]} {sizes[index] === 1 ? "combination" : "combinations"}
            </span>
          </li>
        ))}
      </ol>
      <p className="text-xs text-zinc-600">
        {matrix.include.length} include {matrix.include.length === 1 ? "entry" : "entries"}, {matrix.exclude.length} exclude{" "}
        {matrix.exclude.length === 1 ? "rule" : "rules"}
        {Object.keys(matrix.defaults).length > 0
          ? `; defaults: ${Object.entries(matrix.defaults)
              .map(([key, value]) => `${key} ${paramText(value)}`)
              .join(", ")}`
          : ""}
        .
      </p>
    </div>
  );
}

/** The expanded combinations in run order: what each prompt runs through. */
function Combinations({ built }: { built: BuiltPlan }) {
  const rows = built.combinations.slice(0, SHOWN_COMBINATIONS).map((params) => flattenParams(params));
  const keys = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  if (built.combinations.length === 0) return null;
  const prompts = built.prompts.length;
  return (
    <div className="flex min-w-0 flex-col gap-1.5">
      <h3 className="text-sm font-semibold text-zinc-900">Expanded jobs</h3>
      <p className="text-sm text-zinc-700">
        {built.combinations.length} {built.combinations.length === 1 ? "combination" : "combinations"}
        {prompts > 0 ? ` × ${prompts} ${prompts === 1 ? "prompt" : "prompts"} = ${built.combinations.length * prompts} jobs` : ""}
      </p>
      <div className="max-h-80 overflow-auto rounded-md border border-zinc-200">
        <table className="w-full text-left text-[13px]">
          <caption className="sr-only">Combinations of the matrix, in run order</caption>
          <thead className="sticky top-0 bg-zinc-50 text-xs text-zinc-700">
            <tr>
              <th scope="col" className="px-2 py-1 font-medium">
                #
              </th>
              {keys.map((key) => (
                <th key={key} scope="col" className="px-2 py-1 font-medium whitespace-nowrap">
                  {key.replace("provider_options.", "")}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="font-mono text-zinc-900">
            {rows.map((row, index) => (
              <tr key={index} className="border-t border-zinc-100">
                <td className="px-2 py-0.5 text-zinc-600 tabular-nums">{index + 1}</td>
                {keys.map((key) => (
                  <td key={key} className="px-2 py-0.5 whitespace-nowrap">
                    {row[key] ?? "–"}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {built.combinations.length > SHOWN_COMBINATIONS && (
        <p className="text-xs text-zinc-600">
          The first {SHOWN_COMBINATIONS} of {built.combinations.length} are shown.
        </p>
      )}
    </div>
  );
}

function PlanPanel({ built }: { built: BuiltPlan }) {
  const summary = built.summary;
  const unknown = unknownJobs(built);
  return (
    <section aria-labelledby="batch-plan-heading" className="flex flex-col gap-3 rounded-lg border border-zinc-200 bg-white p-4">
      <h2 id="batch-plan-heading" className="text-sm font-semibold text-zinc-900">
        <span className="text-zinc-500">3.</span> Plan
      </h2>
      {!summary ? (
        <p className="text-sm text-zinc-600">The plan shows once the prompts and the matrix read without problems.</p>
      ) : (
        <>
          <dl aria-label="Plan" className="grid grid-cols-2 gap-x-4 gap-y-1.5 text-sm">
            <Figure label="Prompts" value={String(summary.prompt_count)} />
            <Figure
              label="Matrix size"
              value={`${summary.combinations} (${summary.matrix_blocks} ${summary.matrix_blocks === 1 ? "block" : "blocks"}${
                summary.include_entries > 0 ? `, ${summary.include_entries} include` : ""
              })`}
            />
            <Figure label="Total jobs" value={String(summary.jobs)} />
            <Figure label="Total images" value={String(summary.images)} />
            <Figure
              label="Estimated cost"
              value={`${formatUsd(summary.estimated_cost_usd)}${unknown > 0 ? ` + unknown (${unknown} ${unknown === 1 ? "job" : "jobs"})` : ""}`}
            />
            <Figure
              label="Jobs to run"
              value={`${summary.jobs_to_run}${
                summary.skipped_for_budget + summary.skipped_unknown_price > 0
                  ? ` (${summary.skipped_for_budget} over budget, ${summary.skipped_unknown_price} unknown price skipped)`
                  : ""
              }`}
            />
          </dl>
          <table className="w-full text-left text-sm">
            <caption className="mb-1 text-left text-xs font-medium text-zinc-700">By provider and model</caption>
            <thead className="text-xs text-zinc-600">
              <tr>
                <th scope="col" className="py-1 pr-2 font-medium">
                  Provider / model
                </th>
                <th scope="col" className="py-1 pr-2 text-right font-medium">
                  Jobs
                </th>
                <th scope="col" className="py-1 pr-2 text-right font-medium">
                  Images
                </th>
                <th scope="col" className="py-1 text-right font-medium">
                  Est. cost
                </th>
              </tr>
            </thead>
            <tbody>
              {summary.breakdown.map((row) => (
                <tr key={`${row.provider}/${row.model}`} className="border-t border-zinc-100">
                  <th scope="row" className="py-1 pr-2 font-mono text-[13px] font-normal break-all text-zinc-900">
                    {row.provider} / {row.model}
                  </th>
                  <td className="py-1 pr-2 text-right tabular-nums">{row.jobs}</td>
                  <td className="py-1 pr-2 text-right tabular-nums">{row.images}</td>
                  <td className="py-1 text-right tabular-nums">
                    {row.estimated_cost_usd === null
                      ? "unknown"
                      : `${formatUsd(row.estimated_cost_usd)}${row.unknown_price_jobs > 0 ? " + unknown" : ""}`}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="text-xs text-zinc-600">
            Estimates from the shipped price reference; a price the reference lacks is unknown, never counted as $0.
          </p>
        </>
      )}
    </section>
  );
}

function LimitsPanel({
  limits,
  onChange,
  matrix,
  problems,
}: {
  limits: LimitsInput;
  onChange(limits: LimitsInput): void;
  matrix: MatrixDefinition | null;
  problems: InputProblem[];
}) {
  const ids = { concurrency: useId(), provider: useId(), budget: useId(), mode: useId(), hint: useId() };
  const fromMatrix = matrix?.limits ?? {};
  const set = (key: keyof LimitsInput, value: string) => onChange({ ...limits, [key]: value });
  return (
    <section aria-labelledby="batch-limits-heading" className="flex flex-col gap-3 rounded-lg border border-zinc-200 bg-white p-4">
      <h2 id="batch-limits-heading" className="text-sm font-semibold text-zinc-900">
        <span className="text-zinc-500">4.</span> Limits
      </h2>
      <p id={ids.hint} className="text-xs text-zinc-600">
        A blank field keeps the matrix&apos;s own limits (or the default). Provider concurrency is written provider=N, e.g.
        openai=1,gemini=2.
      </p>
      <div className="grid grid-cols-2 gap-3">
        <label htmlFor={ids.concurrency} className="flex flex-col gap-0.5 text-sm font-medium text-zinc-800">
          Concurrency
          <input
            id={ids.concurrency}
            inputMode="numeric"
            value={limits.concurrency}
            onChange={(event) => set("concurrency", event.target.value)}
            placeholder={String(fromMatrix.concurrency ?? DEFAULT_CONCURRENCY)}
            aria-describedby={ids.hint}
            className={fieldClass}
          />
        </label>
        <label htmlFor={ids.provider} className="flex flex-col gap-0.5 text-sm font-medium text-zinc-800">
          Provider concurrency
          <input
            id={ids.provider}
            value={limits.providerConcurrency}
            onChange={(event) => set("providerConcurrency", event.target.value)}
            placeholder={formatProviderConcurrency(fromMatrix.provider_concurrency) || "none"}
            aria-describedby={ids.hint}
            spellCheck={false}
            className={`font-mono ${fieldClass}`}
          />
        </label>
        <label htmlFor={ids.budget} className="flex flex-col gap-0.5 text-sm font-medium text-zinc-800">
          Budget (USD)
          <input
            id={ids.budget}
            inputMode="decimal"
            value={limits.budgetUsd}
            onChange={(event) => set("budgetUsd", event.target.value)}
            placeholder={fromMatrix.budget_usd == null ? "none" : String(fromMatrix.budget_usd)}
            aria-describedby={ids.hint}
            className={fieldClass}
          />
        </label>
        <label htmlFor={ids.mode} className="flex flex-col gap-0.5 text-sm font-medium text-zinc-800">
          Budget mode
          <select
            id={ids.mode}
            value={limits.budgetMode}
            onChange={(event) => set("budgetMode", event.target.value)}
            className={fieldClass}
          >
            <option value="">{`${fromMatrix.budget_mode ?? "estimate"} (${fromMatrix.budget_mode ? "matrix" : "default"})`}</option>
            {BUDGET_MODES.map((mode) => (
              <option key={mode} value={mode}>
                {mode}
              </option>
            ))}
          </select>
        </label>
      </div>
      <ProblemList label="Problems in the limits" problems={problems} />
    </section>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="text-xs text-zinc-600">{label}</dt>
      <dd className="font-medium tabular-nums text-zinc-900">{value}</dd>
    </div>
  );
}
