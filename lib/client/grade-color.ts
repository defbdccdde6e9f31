// The grade colour scale of the workbench spec: 0.0 red, 1.0 green, a gradient between. Hue runs
// red -> amber -> green in HSL; the text is a dark shade of the same hue on a pale tint of it, which
// keeps it at 7:1 or more against its background across the scale (tests/unit/client/grade-color.test.ts).

/** The three colours of a grade badge, as CSS colour strings. */
export type GradeColor = { background: string; text: string; border: string };

const RED_HUE = 4;
const AMBER_HUE = 40;
const GREEN_HUE = 142;

/** The hue (degrees) for a grade: 4 at 0.0, 40 at 0.5, 142 at 1.0; out-of-range values are clamped, NaN is 0. */
export function gradeHue(value: number): number {
  const grade = Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
  // Two legs, so the middle of the scale is a clear amber rather than a muddy yellow-green.
  return grade <= 0.5 ? RED_HUE + (AMBER_HUE - RED_HUE) * (grade / 0.5) : AMBER_HUE + (GREEN_HUE - AMBER_HUE) * ((grade - 0.5) / 0.5);
}

/** The badge colours for a grade in 0..1. */
export function gradeColor(value: number): GradeColor {
  const hue = Math.round(gradeHue(value));
  return {
    background: `hsl(${hue} 85% 93%)`,
    text: `hsl(${hue} 75% 17%)`,
    border: `hsl(${hue} 60% 60%)`,
  };
}
