/** One input file of an experiment: its base name and its text. */
export interface ExperimentFile {
  name: string;
  text: string;
}

/**
 * The text an experiment sends before its variables are filled: every file wrapped as the
 * experiments spec writes it, `## Document: {filename}\n\n{content}\n\n---\n\n`, the prompt
 * file first, then the context files in the order given. Contents are kept as they are (newlines
 * untouched).
 */
export function concatenateDocuments(files: readonly ExperimentFile[]): string {
  return files.map((file) => `## Document: ${file.name}\n\n${file.text}\n\n---\n\n`).join("");
}

/** A file's text as the runner reads it: a UTF-8 byte order mark at its start removed. */
export function withoutByteOrderMark(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
