import { describe, expect, it } from "vitest";
import { leftChars, packAnswer, PACK_FROM_CHARS, unpackAnswer } from "@/lib/db/cells/packed-answer";

const prose = (chars: number) =>
  Array.from({ length: chars }, (_, i) => "the model answers each question in a few careful sentences "[i % 59]).join("");

describe("packed answers", () => {
  it("keeps a short answer, or none, as text", () => {
    expect(packAnswer(null)).toEqual({ output_raw: null, output_z: null });
    const short = prose(PACK_FROM_CHARS - 1);
    expect(packAnswer(short)).toEqual({ output_raw: short, output_z: null });
  });

  it("deflates a long answer and gives it back exactly, multi-byte characters included", () => {
    const long = `${prose(1500)} — naïve café, 漢字, 🙂🙂`;
    const packed = packAnswer(long);
    expect(packed.output_raw).toBeNull();
    expect(Buffer.from(packed.output_z!, "base64").length).toBeLessThan(Buffer.byteLength(long) * 0.8);
    expect(unpackAnswer(packed.output_raw, packed.output_z)).toBe(long);
  });

  it("gives back answers longer than any window it picks, up to and past 32 KB", () => {
    for (const chars of [PACK_FROM_CHARS, 4_000, 33_000, 200_000]) {
      const long = prose(chars);
      const packed = packAnswer(long);
      expect(packed.output_z).not.toBeNull();
      expect(unpackAnswer(null, packed.output_z)).toBe(long);
    }
  });

  it("keeps as text a long answer that deflate cannot shrink by a fifth", () => {
    // bytes of a random-looking sequence: deflate gains nothing on them
    let state = 7;
    const noise = Array.from({ length: 1200 }, () => {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      return String.fromCharCode(33 + ((state >>> 16) % 94));
    }).join("");
    expect(packAnswer(noise)).toEqual({ output_raw: noise, output_z: null });
  });

  it("cuts by characters as Postgres' left() does, never inside a surrogate pair", () => {
    expect(leftChars("abc", 5)).toEqual({ text: "abc", cut: false });
    expect(leftChars("abc", 3)).toEqual({ text: "abc", cut: false });
    expect(leftChars("abcd", 3)).toEqual({ text: "abc", cut: true });
    // 🙂 is one character (two UTF-16 units): three characters are "a🙂b"
    expect(leftChars("a🙂bc", 3)).toEqual({ text: "a🙂b", cut: true });
    expect(leftChars("a🙂", 2)).toEqual({ text: "a🙂", cut: false });
    expect(leftChars("🙂🙂🙂", 2)).toEqual({ text: "🙂🙂", cut: true });
    expect(leftChars("abc", 0)).toEqual({ text: "", cut: true });
  });
});
