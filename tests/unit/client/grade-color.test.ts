import { describe, expect, it } from "vitest";
import { gradeColor, gradeHue } from "@/lib/client/grade-color";

/** [r, g, b] in 0..255 of a CSS "hsl(H S% L%)" string. */
function rgbOf(css: string): [number, number, number] {
  const match = /^hsl\((\d+(?:\.\d+)?) (\d+(?:\.\d+)?)% (\d+(?:\.\d+)?)%\)$/.exec(css);
  if (!match) throw new Error(`not an hsl() colour: ${css}`);
  const [h, s, l] = [Number(match[1]), Number(match[2]) / 100, Number(match[3]) / 100];
  const k = (n: number) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => l - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)));
  return [f(0) * 255, f(8) * 255, f(4) * 255];
}

/** WCAG 2 relative luminance. */
function luminance([r, g, b]: [number, number, number]): number {
  const channel = (value: number) => {
    const c = value / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(rgbOf(a)), luminance(rgbOf(b))].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

describe("gradeHue", () => {
  it("runs red at 0, amber at 0.5 and green at 1", () => {
    expect(gradeHue(0)).toBe(4);
    expect(gradeHue(0.5)).toBe(40);
    expect(gradeHue(1)).toBe(142);
    expect(gradeHue(0.25)).toBe(22);
    expect(gradeHue(0.75)).toBe(91);
  });

  it("clamps out-of-range grades and treats NaN as 0", () => {
    expect(gradeHue(-1)).toBe(4);
    expect(gradeHue(7)).toBe(142);
    expect(gradeHue(Number.NaN)).toBe(4);
  });
});

describe("gradeColor", () => {
  it("is red at 0.0 and green at 1.0", () => {
    const [r0, g0] = rgbOf(gradeColor(0).text);
    expect(r0).toBeGreaterThan(g0 * 3);
    const [r1, g1] = rgbOf(gradeColor(1).text);
    expect(g1).toBeGreaterThan(r1 * 2);
    const [ra, ga, ba] = rgbOf(gradeColor(0.5).background);
    expect(ra).toBeGreaterThan(ga);
    expect(ga).toBeGreaterThan(ba);
  });

  it("keeps the text at 7:1 or more on its background across the whole scale", () => {
    for (let step = 0; step <= 100; step++) {
      const { background, text } = gradeColor(step / 100);
      expect(contrast(text, background), `grade ${step / 100}`).toBeGreaterThanOrEqual(7);
    }
  });

  it("gives different colours to different grades", () => {
    expect(gradeColor(0.2).background).not.toBe(gradeColor(0.8).background);
    expect(gradeColor(0).border).toBe("hsl(4 60% 60%)");
  });
});
