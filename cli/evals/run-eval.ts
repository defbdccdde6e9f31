import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { EvalBaseline } from "@/lib/api/eval-baseline";
import type { CreateEvalInput, EvalDetail } from "@/lib/api/evals";
import type { EvalResult, EvalRun, PairedComparison } from "@/lib/core/eval/eval-run";
import { compareEvalRuns } from "@/lib/core/eval/stats/compare-eval-runs";
import { differenceVerdict } from "@/lib/core/eval/stats/difference-verdict";
import { comparisonToMarkdown, needsComparison } from "@/lib/formats/eval-exports/comparison-markdown";
import type { EvalExportFormat } from "@/lib/formats/eval-exports/export-file-name";
import { CliError, exitCodes } from "../cli-error";
import type { EvalSource } from "./eval-source";

/** How the run is told to the person: every line goes to stderr. */
export interface EvalReporter {
  info(message: string): void;
  warning(message: string): void;
  /** A result as it finishes (one line with -v). */
  result(run: EvalRun, result: EvalResult): void;
  /** Finished results of all cells (the progress line on a terminal). */
  progress(finished: number, total: number, passed: number): void;
  done(): void;
}

/** What one `parallaxr eval run` asks for. */
export interface EvalRequest {
  input: CreateEvalInput;
  /** Where the exports go (-o). */
  outputDir: string;
  /** The per-EvalRun formats (-f), and whether the JUnit XML of every run is written too. */
  formats: Array<Exclude<EvalExportFormat, "junit">>;
  junit: boolean;
  /** --baseline: the run_id of an earlier EvalRun each run is compared with. */
  baseline: string | null;
  reporter: EvalReporter;
}

/** What the run made: the eval, its EvalRuns, the files written and the paired comparisons with the baseline. */
export interface EvalOutcome {
  detail: EvalDetail;
  paths: string[];
  baseline: { run: EvalRun; comparisons: PairedComparison[] } | null;
}

/**
 * Makes the eval on the source, follows it until every cell has finished (reporting each result
 * as it comes), then writes the exports with the service's own functions (the API's files, byte
 * for byte), comparison.md when the eval made more than one EvalRun, and with --baseline the
 * paired comparison of each EvalRun with the earlier one. SIGINT stops the follow (exit 130).
 */
export async function runEval(source: EvalSource, request: EvalRequest): Promise<EvalOutcome> {
  const { reporter } = request;
  // The baseline is looked up first: a run_id that names nothing costs no call.
  const baseline: EvalBaseline | null = request.baseline === null ? null : await source.baseline(request.baseline);
  if (baseline)
    reporter.info(`Baseline ${baseline.run.run_id}: ${baseline.run.prompt_name} on ${baseline.run.model} (eval ${baseline.evalId})`);
  const created = await source.create(request.input);
  reporter.info(
    `Eval ${created.id}: ${created.prompts.length} prompt(s) x ${created.models.length} model(s) x ${created.testCases} test case(s) x ${created.repeat} trial(s) = ${created.cells} results`,
  );
  for (const warning of created.warnings) reporter.warning(warning);
  const detail = await follow(source, created.id, created.cells, reporter);

  mkdirSync(request.outputDir, { recursive: true });
  const paths: string[] = [];
  const write = (file: { filename: string; text: string }) => {
    // A name from a server is only ever a file in the output folder.
    if (path.basename(file.filename) !== file.filename || file.filename.startsWith(".")) {
      throw new CliError(`Refusing to write an export named ${JSON.stringify(file.filename)}: not a plain file name.`);
    }
    const where = path.join(request.outputDir, file.filename);
    writeFileSync(where, file.text);
    paths.push(where);
  };
  for (const run of detail.runs) {
    for (const format of request.formats) write(await source.exportFile(created.id, format, run.run_id));
  }
  if (request.junit) write(await source.exportFile(created.id, "junit", null));
  if (needsComparison(detail.runs)) write(await source.comparison(created.id));

  let compared: EvalOutcome["baseline"] = null;
  if (baseline) {
    const comparisons = detail.runs.map((run) => compareEvalRuns(baseline.run, run));
    write({
      filename: `baseline_${baseline.run.run_id}_comparison.md`,
      text: comparisonToMarkdown([baseline.run, ...detail.runs], comparisons, new Date(detail.runs[0]?.started_at ?? Date.now())),
    });
    compared = { run: baseline.run, comparisons };
  }
  if (detail.eval.status === "failed" || detail.eval.status === "cancelled") {
    throw new CliError(
      `The eval ${created.id} was ${detail.eval.status}; the results it finished are in ${paths.join(", ") || "no file"}.`,
    );
  }
  return { detail, paths, baseline: compared };
}

const finishedStatuses = new Set(["completed", "failed", "cancelled"]);

async function follow(source: EvalSource, evalId: string, total: number, reporter: EvalReporter): Promise<EvalDetail> {
  // Each read builds every EvalRun from all the cells: a large eval is read less often (about
  // 0.5 s apart at 10,000 cells), so following it never costs more than running it.
  const pollMs = Math.min(2_000, source.pollMs + Math.floor(total / 20));
  const seen = new Set<string>();
  let interrupted = false;
  const onInterrupt = () => {
    interrupted = true;
  };
  process.once("SIGINT", onInterrupt);
  process.once("SIGTERM", onInterrupt);
  try {
    for (;;) {
      const detail = await source.get(evalId);
      let passed = 0;
      for (const run of detail.runs) {
        for (const result of run.results) {
          if (result.passed) passed++;
          const key = `${run.run_id}/${result.test_case}/${result.trial}`;
          if (seen.has(key)) continue;
          seen.add(key);
          reporter.result(run, result);
        }
      }
      reporter.progress(seen.size, total, passed);
      if (finishedStatuses.has(detail.eval.status)) return detail;
      if (interrupted) {
        // Cancelled, so that no worker (the app's, later) goes on calling models for it.
        let cancelled = "cancelled";
        try {
          await source.cancel(evalId);
        } catch (error) {
          cancelled = `not cancelled (${(error as Error).message})`;
        }
        throw new CliError(
          `Interrupted: ${seen.size} of ${total} results had finished; nothing was exported. The eval ${evalId} was ${cancelled}; what finished stays in the app's history.`,
          exitCodes.interrupted,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  } finally {
    process.off("SIGINT", onInterrupt);
    process.off("SIGTERM", onInterrupt);
    reporter.done();
  }
}

/** The share of every result of every EvalRun that passed (an error counts as a fail). */
export function overallPassRate(runs: readonly EvalRun[]): { passed: number; total: number; rate: number } {
  const results = runs.flatMap((run) => run.results);
  const passed = results.filter((result) => result.passed).length;
  return { passed, total: results.length, rate: results.length === 0 ? 0 : passed / results.length };
}

/** One paired comparison in a line: the difference in pass rate with its 95% interval and the verdict. */
export function describeComparison(comparison: PairedComparison): string {
  const rate = comparison.pass_rate;
  const points = (value: number) => `${value > 0 ? "+" : ""}${(value * 100).toFixed(1)} pp`;
  const verdict = differenceVerdict(rate.interval, rate.mcnemar_p_value);
  const p = rate.mcnemar_p_value === null ? "" : `, McNemar p = ${rate.mcnemar_p_value.toFixed(3)}`;
  const needed = rate.cases_needed === null ? "" : `; a difference this size needs ${rate.cases_needed} cases at 80% power`;
  return (
    `${comparison.candidate.prompt_name} on ${comparison.candidate.model} (${comparison.candidate.run_id}) vs baseline ` +
    `${comparison.baseline.prompt_name} on ${comparison.baseline.model} (${comparison.baseline.run_id}), ${comparison.paired_cases} paired cases: ` +
    `pass rate ${(rate.baseline.value * 100).toFixed(1)}% -> ${(rate.candidate.value * 100).toFixed(1)}%, ` +
    `difference ${points(rate.difference)} (95% CI ${points(rate.interval.low)} to ${points(rate.interval.high)}${p}): ${verdict}${needed}`
  );
}
