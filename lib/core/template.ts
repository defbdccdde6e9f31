/** A value a template variable may take; null and undefined count as "no value". */
export type TemplateValue = string | number | boolean | null | undefined;

/** The rendered text and the placeholders left in it because their variable had no value. */
export type RenderedTemplate = { text: string; missing: string[] };

// One pattern for detection and rendering so the editor's chips and the run never disagree.
// Names may not start with a digit so `{{1}}`-style text in prompts (e.g. examples of other
// template languages or literal braces) is left alone.
const PLACEHOLDER_SOURCE = String.raw`\{\{\s*([\p{L}_.-][\p{L}\d_.-]*)\s*\}\}`;

/** A new global regex matching `{{name}}` placeholders (group 1 is the name). */
export function placeholderPattern(): RegExp {
  // A fresh RegExp per call: a shared global regex carries lastIndex between calls.
  return new RegExp(PLACEHOLDER_SOURCE, "gu");
}

/** Names of the `{{name}}` placeholders in `text`, each once, in order of first appearance. */
export function detectVariables(text: string): string[] {
  const seen = new Set<string>();
  for (const match of text.matchAll(placeholderPattern())) seen.add(match[1]);
  return [...seen];
}

/**
 * Replaces every placeholder whose variable has a value, in a single pass: a value that itself
 * contains `{{x}}` is inserted literally, never expanded again.
 */
export function renderTemplate(text: string, variables: Record<string, TemplateValue>): RenderedTemplate {
  const missing = new Set<string>();
  const rendered = text.replace(placeholderPattern(), (placeholder, name: string) => {
    // Own properties only, so a prompt mentioning {{constructor}} is not filled from Object.prototype.
    const value = Object.prototype.hasOwnProperty.call(variables, name) ? variables[name] : undefined;
    if (value === null || value === undefined) {
      missing.add(name);
      return placeholder;
    }
    return String(value);
  });
  return { text: rendered, missing: [...missing] };
}

/** The warning for a placeholder without a value, worded as in the experiments spec (rows count from 1). */
export function missingVariableWarning(name: string, rowNumber: number): string {
  return `Variable {{${name}}} in template has no value in experiment row ${rowNumber}`;
}
