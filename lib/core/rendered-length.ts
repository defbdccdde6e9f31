import { placeholderPattern, type TemplateValue } from "./template";
import { countCodePoints } from "./tokens";

/** What a template's rendered length depends on: its fixed text, and each variable's placeholders. */
export interface TemplateShape {
  /** Code points of the text outside every placeholder. */
  fixedLength: number;
  /** Each variable once, in order of first appearance. */
  variables: Array<{
    name: string;
    /** How many placeholders name it: its value is inserted that many times. */
    occurrences: number;
    /** Code points of those placeholders together: what stays in the text when it has no value. */
    placeholderLength: number;
  }>;
}

/** The shape of template `text`, read in one pass with the pattern renderTemplate uses. */
export function templateShape(text: string): TemplateShape {
  const variables = new Map<string, { name: string; occurrences: number; placeholderLength: number }>();
  let placeholdersLength = 0;
  for (const match of text.matchAll(placeholderPattern())) {
    const length = countCodePoints(match[0]);
    placeholdersLength += length;
    const variable = variables.get(match[1]) ?? { name: match[1], occurrences: 0, placeholderLength: 0 };
    variable.occurrences++;
    variable.placeholderLength += length;
    variables.set(match[1], variable);
  }
  return { fixedLength: countCodePoints(text) - placeholdersLength, variables: [...variables.values()] };
}

/**
 * Code points of the template rendered with one row, without building the text:
 * fixed text, plus each value as often as it is named, plus the placeholders of variables that
 * have no value (renderTemplate leaves those in). valueLength answers a value's length in code
 * points, or null when the variable has no value.
 */
export function renderedLength(shape: TemplateShape, valueLength: (name: string) => number | null): number {
  let length = shape.fixedLength;
  for (const variable of shape.variables) {
    const value = valueLength(variable.name);
    length += value === null ? variable.placeholderLength : value * variable.occurrences;
  }
  return length;
}

/** valueLength for a row of values, as renderTemplate reads it (own properties; null and undefined are no value). */
export function valueLengthsOf(variables: Record<string, TemplateValue>): (name: string) => number | null {
  return (name) => {
    const value = Object.prototype.hasOwnProperty.call(variables, name) ? variables[name] : undefined;
    return value === null || value === undefined ? null : countCodePoints(String(value));
  };
}
