/**
 * Ids and folder names of a matrix run (specs/matrix-comparisons.md): the batch id
 * `20251227_143500_matrix`, the run id `20251227_143500_v1_llama-3.3-70b_tech-talk-01` (the time
 * the eval started, then prompt version, model and input), and the comparison folders
 * `{batch ts}_prompt_{input}_{model}` and `{batch ts}_model_{input}_{prompt}`. Times are UTC.
 * A `/` (or `\`) in a part is written `-`, so `groq/llama-3.3-70b-versatile` stays one path
 * segment: `groq-llama-3.3-70b-versatile`.
 */

/** The spec's timestamp of a batch or a run: `YYYYMMDD_HHMMSS` in UTC. */
export function idTimestamp(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, "0");
  return (
    `${date.getUTCFullYear()}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}_` +
    `${pad(date.getUTCHours())}${pad(date.getUTCMinutes())}${pad(date.getUTCSeconds())}`
  );
}

/** A part of an id or a folder name with its path separators written as `-`. */
export function idPart(text: string): string {
  return text.replace(/[/\\]/g, "-");
}

/** The batch id of a matrix started at startedAt: `20251227_143500_matrix`. */
export function batchId(startedAt: Date): string {
  return `${idTimestamp(startedAt)}_matrix`;
}

/** The timestamp a batch id starts with (`20251227_143500` of `20251227_143500_matrix`), or null when it is not a batch id. */
export function batchTimestampOf(id: string): string | null {
  const match = /^(\d{8}_\d{6})_matrix$/.exec(id);
  return match ? match[1] : null;
}

/** The parts a run id is made of. */
export interface RunIdParts {
  /** When the eval started. */
  startedAt: Date;
  promptVersion: string;
  /** The model as the user named it (llama-3.3-70b, groq/llama-3.3-70b-versatile). */
  model: string;
  inputId: string;
}

/** The run id of one eval: `20251227_143500_v1_llama-3.3-70b_tech-talk-01`. */
export function runId({ startedAt, promptVersion, model, inputId }: RunIdParts): string {
  return [idTimestamp(startedAt), promptVersion, model, inputId].map(idPart).join("_");
}

/** The folder of the prompt comparison of one input and model in a batch: `20251227_143500_prompt_tech-talk-01_llama-3.3-70b`. */
export function promptComparisonFolder({
  batchTimestamp,
  inputId,
  model,
}: {
  batchTimestamp: string;
  inputId: string;
  model: string;
}): string {
  return [batchTimestamp, "prompt", inputId, model].map(idPart).join("_");
}

/** The folder of the model comparison of one input and prompt version in a batch: `20251227_143500_model_tech-talk-01_v1`. */
export function modelComparisonFolder({
  batchTimestamp,
  inputId,
  promptVersion,
}: {
  batchTimestamp: string;
  inputId: string;
  promptVersion: string;
}): string {
  return [batchTimestamp, "model", inputId, promptVersion].map(idPart).join("_");
}

/** A time as the spec's files write it: ISO 8601 in UTC to the second, `2025-12-27T14:35:00Z`. */
export function isoTimestamp(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, "Z");
}
