import { deflateRawSync, inflateRawSync } from "node:zlib";

// How a model's answer is stored (0022_smaller_cells.sql). Postgres compresses a row only once it
// passes ~2 KB, so an answer of a few hundred to ~1,800 characters was stored as it is: a cell of a
// 1,500-character answer took ~2.2 KB of disk. An answer from PACK_FROM_CHARS characters on is
// stored deflated in output_z instead of output_raw, when that saves at least a fifth; every reader
// unpacks it here, so nothing above the database sees the difference.

/** Answers shorter than this are stored as text: too short to gain from deflate. */
export const PACK_FROM_CHARS = 512;

/** An answer as run_cells stores it: text in output_raw, or deflated (base64 in JSON) in output_z. */
export interface PackedAnswer {
  output_raw: string | null;
  output_z: string | null;
}

/** The answer as its columns; `text` must already be storable (no U+0000, no lone surrogate). */
export function packAnswer(text: string | null): PackedAnswer {
  if (text === null || text.length < PACK_FROM_CHARS) return { output_raw: text, output_z: null };
  const plain = Buffer.from(text, "utf8");
  // A window no larger than the text and a smaller hash table: the same bytes out for answers of a
  // few KB (docs/*.md passages of 1,500 characters: 790 bytes either way) in a quarter less time.
  const windowBits = Math.min(15, Math.max(9, Math.ceil(Math.log2(plain.length))));
  const packed = deflateRawSync(plain, { windowBits, memLevel: 6 });
  return packed.length * 5 <= plain.length * 4
    ? { output_raw: null, output_z: packed.toString("base64") }
    : { output_raw: text, output_z: null };
}

/** The SQL that selects a packed answer for unpackAnswer, as base64 text (it also travels in JSON). */
export function packedColumn(alias: string): string {
  return `encode(${alias}output_z, 'base64') as output_z`;
}

/** The answer of output_raw and output_z as packedColumn selected them. */
export function unpackAnswer(raw: string | null, packedBase64: string | null): string | null {
  if (packedBase64 === null) return raw;
  return inflateRawSync(Buffer.from(packedBase64, "base64")).toString("utf8");
}

/** The first `chars` characters (code points, as Postgres' left() counts them) and whether any were cut. */
export function leftChars(text: string, chars: number): { text: string; cut: boolean } {
  if (text.length <= chars) return { text, cut: false };
  let units = 0;
  for (let taken = 0; taken < chars && units < text.length; taken++) {
    units += text.codePointAt(units)! > 0xffff ? 2 : 1;
  }
  return { text: text.slice(0, units), cut: units < text.length };
}
