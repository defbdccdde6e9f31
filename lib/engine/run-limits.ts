import type { Environment } from "@/lib/environment";
import { QueuedCellsLimitError, TooLargeError } from "./errors";

/**
 * How large a run may be. Lengths are in characters (Unicode code points, as the token estimate
 * and Postgres's length() count them). Each has an environment variable of the same meaning.
 */
export interface RunLimits {
  /** A prompt or grader template, before rendering (PARALLAXR_MAX_PROMPT_CHARS). */
  maxPromptChars: number;
  /** One cell's rendered input: the template with its row's values (PARALLAXR_MAX_RENDERED_CHARS_PER_CELL). */
  maxRenderedCharsPerCell: number;
  /** Every cell's rendered input together, trials and models included (PARALLAXR_MAX_RENDERED_CHARS_PER_RUN). */
  maxRenderedCharsPerRun: number;
  /** Rows x models x trials of one run (PARALLAXR_MAX_CELLS_PER_RUN). */
  maxCellsPerRun: number;
  /** Cells one user may have waiting or in flight over all their unfinished runs (PARALLAXR_MAX_QUEUED_CELLS_PER_USER). */
  maxQueuedCellsPerUser: number;
}

/**
 * The defaults, and why:
 * - prompt 1,000,000: what the API schemas and the prompt editor already accept.
 * - 4,000,000 per cell: an experiment's or eval's concatenated context files are the point of
 *   those runs and reach a few MB; past that no hosted model's context window takes the input.
 * - 1,000,000,000 per run (about 250M estimated input tokens, $250-750 at $1-3 per million):
 *   the planner no longer holds rendered text, so this bounds the work a run queues (every cell
 *   is rendered and hashed once by a worker, ~2 s of CPU per GB) and what one request can
 *   spend, not the planner's memory. A 1 MB prompt x 6,000 rows (6 GB) is refused.
 * - 200,000 cells per run: 50,000 rows x 4 models; created in ~6-16 s on these 2-core machines
 *   in short transactions (bench/run-size.ts), cancelled in seconds.
 * - 1,000,000 queued cells per user: five such runs waiting at once; 1.6M cells grew the
 *   database by 1.5 GB, so this keeps one user's queue near a gigabyte.
 */
export const defaultRunLimits: RunLimits = {
  maxPromptChars: 1_000_000,
  maxRenderedCharsPerCell: 4_000_000,
  maxRenderedCharsPerRun: 1_000_000_000,
  maxCellsPerRun: 200_000,
  maxQueuedCellsPerUser: 1_000_000,
};

/** The environment variable of each limit. */
export const runLimitVariables: Record<keyof RunLimits, string> = {
  maxPromptChars: "PARALLAXR_MAX_PROMPT_CHARS",
  maxRenderedCharsPerCell: "PARALLAXR_MAX_RENDERED_CHARS_PER_CELL",
  maxRenderedCharsPerRun: "PARALLAXR_MAX_RENDERED_CHARS_PER_RUN",
  maxCellsPerRun: "PARALLAXR_MAX_CELLS_PER_RUN",
  maxQueuedCellsPerUser: "PARALLAXR_MAX_QUEUED_CELLS_PER_USER",
};

/** The limits, each from its environment variable when set (a positive whole number), else the default. */
export function runLimitsFromEnv(env: Environment = process.env): RunLimits {
  const limits = { ...defaultRunLimits };
  for (const key of Object.keys(runLimitVariables) as Array<keyof RunLimits>) {
    const text = env[runLimitVariables[key]]?.trim().replaceAll("_", "");
    if (!text) continue;
    const value = Number(text);
    // A typo must not lift a limit: refuse to plan rather than guess.
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new Error(`${runLimitVariables[key]} must be a positive whole number, not "${env[runLimitVariables[key]]}".`);
    }
    limits[key] = value;
  }
  return limits;
}

/** 1234567 as "1,234,567", for messages. */
export function formatCount(value: number): string {
  return value.toLocaleString("en-US");
}

/** Refuses a prompt or grader template longer than maxPromptChars (413 naming field). */
export function checkPromptSize({ field, what, length }: { field: string; what: string; length: number }, limits: RunLimits): void {
  if (length <= limits.maxPromptChars) return;
  throw new TooLargeError(
    `The ${what} is ${formatCount(length)} characters; the limit is ${formatCount(limits.maxPromptChars)} characters (${runLimitVariables.maxPromptChars}). Put long material in the dataset's values instead.`,
    field,
  );
}

/**
 * Refuses a run of more than maxCellsPerRun cells, counted before anything is read or written.
 * `words` names what the rows and columns are for the run's kind in the message (a matrix's rows
 * are inputs, its columns prompt versions x models).
 */
export function checkCellCount(
  {
    field,
    rows,
    columns,
    trials,
    words = { rows: "rows", columns: "models", fewer: "rows, models or trials" },
  }: {
    field: string;
    rows: number;
    columns: number;
    trials: number;
    words?: { rows: string; columns: string; fewer: string };
  },
  limits: RunLimits,
): void {
  const cells = rows * columns * trials;
  if (cells <= limits.maxCellsPerRun) return;
  throw new TooLargeError(
    `This run would have ${formatCount(cells)} cells (${formatCount(rows)} ${words.rows} x ${formatCount(columns)} ${words.columns} x ${formatCount(trials)} trials); ` +
      `the limit is ${formatCount(limits.maxCellsPerRun)} cells per run (${runLimitVariables.maxCellsPerRun}). Use fewer ${words.fewer}, or split it into several runs.`,
    field,
  );
}

/**
 * Refuses a run whose cells' rendered inputs are too large, one by one (maxRenderedCharsPerCell,
 * field `${field}.<row>` for inline rows) or together (maxRenderedCharsPerRun), from each row's
 * rendered length alone.
 */
export function checkRenderedSize(
  {
    field,
    rowField,
    rowLengths,
    columns,
    trials,
  }: { field: string; rowField: ((rowIndex: number) => string) | null; rowLengths: ArrayLike<number>; columns: number; trials: number },
  limits: RunLimits,
): void {
  let perCall = 0;
  for (let index = 0; index < rowLengths.length; index++) {
    const length = rowLengths[index];
    perCall += length;
    if (length > limits.maxRenderedCharsPerCell) {
      throw new TooLargeError(
        `Row ${formatCount(index + 1)} renders to ${formatCount(length)} characters of input; the limit is ${formatCount(limits.maxRenderedCharsPerCell)} characters per cell (${runLimitVariables.maxRenderedCharsPerCell}). Shorten that row's values or the prompt.`,
        rowField ? rowField(index) : field,
      );
    }
  }
  const total = perCall * columns * trials;
  if (total <= limits.maxRenderedCharsPerRun) return;
  throw new TooLargeError(
    `This run would send ${formatCount(total)} characters of rendered input (${formatCount(perCall)} over its ${formatCount(rowLengths.length)} rows, x ${formatCount(columns)} models x ${formatCount(trials)} trials); ` +
      `the limit is ${formatCount(limits.maxRenderedCharsPerRun)} characters per run (${runLimitVariables.maxRenderedCharsPerRun}). Use a shorter prompt, fewer rows, models or trials, or split it into several runs.`,
    field,
  );
}

/** Refuses a run that would take the user's queued cells past maxQueuedCellsPerUser. */
export function checkQueuedCells({ queued, adding }: { queued: number; adding: number }, limits: RunLimits): void {
  if (queued + adding <= limits.maxQueuedCellsPerUser) return;
  throw new QueuedCellsLimitError(
    `You have ${formatCount(queued)} cells queued in unfinished runs, and this run would add ${formatCount(adding)} more; ` +
      `the limit is ${formatCount(limits.maxQueuedCellsPerUser)} queued cells per user (${runLimitVariables.maxQueuedCellsPerUser}). Wait for your runs to finish, or cancel one.`,
  );
}
