/** A dataset file that cannot be read, saying where (file and row) and what to do about it. */
export class DatasetParseError extends Error {
  /** The file name as the user gave it. */
  readonly file: string;
  /** Line of the file where the problem is (the header is row 1), or null when no row applies. */
  readonly row: number | null;
  /** The field (1 for the first) where a CSV record goes wrong, when the reader knows it. */
  readonly column: number | null;
  /** What is wrong, as one sentence (kept so the error can be rebuilt across a worker boundary). */
  readonly problem: string;
  /** What the user can do to fix the file. */
  readonly hint: string;

  constructor(input: { file: string; row: number | null; column?: number | null; problem: string; hint: string }) {
    const where = input.row === null ? input.file : `${input.file}, row ${input.row}`;
    super(`${where}: ${input.problem} ${input.hint}`);
    this.name = "DatasetParseError";
    this.file = input.file;
    this.row = input.row;
    this.column = input.column ?? null;
    this.problem = input.problem;
    this.hint = input.hint;
  }
}
