// Files chosen on the page read as text, each bounded before it is read: a file can hold at most
// MAX_MATRIX_FILE_CHARS characters, and UTF-8 spends at most 4 bytes on one, so a larger file is
// refused by its size alone and never loaded into the page.
import { MAX_MATRIX_FILE_CHARS } from "@/lib/api/matrix";
import { fileVersion } from "./file-version";

/** A file read: its name, the version or id it goes by, and its text (a leading BOM dropped). */
export interface NamedText {
  fileName: string;
  name: string;
  text: string;
}

/** Reads files as texts; the ones that cannot be used are named in problems with what to do. */
export async function readTextFiles(files: Iterable<File>): Promise<{ read: NamedText[]; problems: string[] }> {
  const read: NamedText[] = [];
  const problems: string[] = [];
  const limit = MAX_MATRIX_FILE_CHARS.toLocaleString("en-US");
  for (const file of files) {
    const named = fileVersion(file.name);
    if (!named.ok) {
      problems.push(named.error);
      continue;
    }
    if (file.size > MAX_MATRIX_FILE_CHARS * 4) {
      problems.push(`${file.name}: too large (${file.size.toLocaleString("en-US")} bytes); a file may hold at most ${limit} characters.`);
      continue;
    }
    const text = (await file.text()).replace(/^\uFEFF/, "");
    if (text.length > MAX_MATRIX_FILE_CHARS) {
      problems.push(`${file.name}: ${text.length.toLocaleString("en-US")} characters; a file may hold at most ${limit}.`);
      continue;
    }
    read.push({ fileName: file.name, name: named.name, text });
  }
  return { read, problems };
}
