/**
 * A saved dataset's rows as a matrix's inputs, made in the browser (POST /api/v1/matrix takes
 * inputs as texts): one column's value is the input's text, its id comes from an id column or
 * the row's number. An id must be a name the API takes (letters, digits, ".", "_", "-", "@"), so
 * any other character becomes "-"; two rows that end up with one id get "-2", "-3", ...
 */
import { MATRIX_NAME_PATTERN } from "@/lib/api/matrix";

/** An input of a matrix: its id and text. */
export interface MatrixInputText {
  id: string;
  text: string;
}

/** The inputs of rows; idColumn null numbers them row-1, row-2, ... Notes say which ids were changed. */
export function datasetInputs({
  rows,
  textColumn,
  idColumn,
}: {
  rows: ReadonlyArray<Record<string, string>>;
  textColumn: string;
  idColumn: string | null;
}): { inputs: MatrixInputText[]; notes: string[] } {
  const used = new Set<string>();
  const notes: string[] = [];
  const inputs = rows.map((row, index) => {
    const fallback = `row-${index + 1}`;
    const raw = idColumn === null ? fallback : (row[idColumn] ?? "").trim();
    let id = idColumn === null ? fallback : inputId(raw) || fallback;
    if (used.has(id)) {
      let suffix = 2;
      while (used.has(`${id}-${suffix}`)) suffix++;
      id = `${id}-${suffix}`;
    }
    used.add(id);
    if (idColumn !== null && id !== raw) notes.push(`Row ${index + 1}: id "${raw}" is written ${id}.`);
    return { id, text: row[textColumn] ?? "" };
  });
  return { inputs, notes };
}

/** A value as an input id: characters the API refuses become "-", ".." becomes ".", at most 200 characters; "" when nothing is left. */
export function inputId(value: string): string {
  const id = value
    .replace(/[^A-Za-z0-9._@-]+/g, "-")
    .replace(/\.{2,}/g, ".")
    .replace(/^[^A-Za-z0-9]+/, "")
    .slice(0, 200)
    .replace(/[-.]+$/, "");
  return MATRIX_NAME_PATTERN.test(id) ? id : "";
}
