/** The export formats of an eval run, as `-f` and the API name them. */
export type EvalExportFormat = "json" | "csv" | "markdown" | "html" | "junit";

/** Each format's file extension. */
export const EVAL_EXPORT_EXTENSIONS: Record<EvalExportFormat, string> = {
  json: "json",
  csv: "csv",
  markdown: "md",
  html: "html",
  junit: "xml",
};

/** The spec's run_id: 8 hex characters. */
export const EVAL_RUN_ID = /^[0-9a-f]{8}$/;

// Characters no file system accepts in a name, and control characters: a prompt named "a/b"
// must not write outside the output folder.
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const UNSAFE_IN_FILE_NAME = /[/\\:*?"<>|\u0000-\u001f\u007f]/g;

/**
 * The spec's export file name, `{prompt}_{run_id}_{timestamp}.{ext}`, with the timestamp as
 * YYYYMMDD_HHMMSS in UTC. Characters a file name cannot hold become "_", and a name of dots
 * alone ("..") becomes "_" too; any other prompt name is kept as it is.
 */
export function evalExportFileName(run: { prompt_name: string; run_id: string }, format: EvalExportFormat, at: Date): string {
  if (!EVAL_RUN_ID.test(run.run_id)) throw new Error(`run_id must be 8 hex characters, not ${JSON.stringify(run.run_id)}`);
  return `${safeFileNamePart(run.prompt_name)}_${run.run_id}_${utcTimestamp(at)}.${EVAL_EXPORT_EXTENSIONS[format]}`;
}

/** YYYYMMDD_HHMMSS in UTC. */
export function utcTimestamp(at: Date): string {
  const two = (value: number) => String(value).padStart(2, "0");
  return (
    `${at.getUTCFullYear()}${two(at.getUTCMonth() + 1)}${two(at.getUTCDate())}_` +
    `${two(at.getUTCHours())}${two(at.getUTCMinutes())}${two(at.getUTCSeconds())}`
  );
}

function safeFileNamePart(name: string): string {
  const safe = name.replace(UNSAFE_IN_FILE_NAME, "_");
  return /^\.*$/.test(safe) ? "_".repeat(Math.max(1, safe.length)) : safe;
}
