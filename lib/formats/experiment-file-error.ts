/**
 * A file of an experiment that cannot be used, saying which file, where (the physical line, the
 * header being line 1, and the column when one applies) and what to do. Thrown before any call.
 */
export class ExperimentFileError extends Error {
  readonly file: string;
  readonly line: number | null;
  readonly column: number | null;
  readonly problem: string;
  readonly hint: string;

  constructor(input: { file: string; line?: number | null; column?: number | null; problem: string; hint: string }) {
    const line = input.line ?? null;
    const column = input.column ?? null;
    const where = [input.file, line === null ? null : `line ${line}`, column === null ? null : `column ${column}`]
      .filter(Boolean)
      .join(", ");
    super(`${where}: ${input.problem} ${input.hint}`);
    this.name = "ExperimentFileError";
    this.file = input.file;
    this.line = line;
    this.column = column;
    this.problem = input.problem;
    this.hint = input.hint;
  }
}
