/**
 * The builder's screen as plain lines from its state (pure): a title naming the step, the step's
 * fields one a line with ">" before the focused one, what was loaded, the errors in words, and the
 * keys. Nothing depends on colour; every line fits `width` columns (80 is the design width).
 */
import { usd, type PlanSummary } from "@/lib/core/batch/dry-run";
import type { BudgetMode } from "@/lib/core/batch/matrix";
import { formatProviderConcurrency, headlessCommandLine } from "../options";
import { clip, wrap } from "./fit-text";
import { effectiveLimits, focusedField, optionsOf, STEPS, type BuilderState, type FieldId, type TextFieldId } from "./state";

export interface Screen {
  lines: string[];
  /** Where the terminal's cursor belongs (0-based), on the focused text field; null hides it. */
  cursor: { row: number; col: number } | null;
  /** How many last lines (from the blank above the buttons on) a short terminal must still show. */
  tail: number;
}

const LABELS: Record<TextFieldId, string> = {
  promptsPath: "Prompt file (.txt or .csv)",
  range: "Prompt range (FROM-TO, blank for all)",
  matrixPath: "Matrix file (.yaml, .yml or .json)",
  concurrency: "Concurrency (1-64, blank for the matrix's or 3)",
  providerConcurrency: "Per-provider concurrency (e.g. openai=1,gemini=2)",
  budget: "Budget in USD (blank for the matrix's or none)",
  out: "Output folder",
};

export const BUDGET_MODE_HELP: Record<BudgetMode, string> = {
  estimate: "stops scheduling once the estimate would pass the budget; unknown prices run",
  strict: "skips jobs without a known price; an overrun halts new jobs",
  off: "enforces no budget; costs are still estimated",
};

/** What Enter does on the focused field, as the keys line says it (a text field: apply). */
const ENTER_DOES: Partial<Record<FieldId, string>> = { next: "press", back: "press", budgetMode: "next" };

const SHORT_NAMES = ["Prompts", "Matrix", "Plan", "Limits", "Run"];

/** `[a, b]` for a list, the value itself otherwise. */
function valueText(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(valueText).join(", ")}]`;
  if (value !== null && typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** One matrix block or include entry as `key value` pairs, provider_options flattened. */
function describeEntry(entry: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(entry)) {
    if (key === "provider_options" && value !== null && typeof value === "object" && !Array.isArray(value)) {
      for (const [option, v] of Object.entries(value as Record<string, unknown>)) parts.push(`${option} ${valueText(v)}`);
    } else parts.push(`${key} ${valueText(value)}`);
  }
  return parts.join(", ");
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function budgetText(budgetUsd: number | null, mode: BudgetMode): string {
  if (mode === "off") return "budget mode off";
  return budgetUsd === null ? `no budget, mode ${mode}` : `budget ${usd(budgetUsd)}, mode ${mode}`;
}

function planLines(plan: PlanSummary, state: BuilderState, width: number): string[] {
  const limits = effectiveLimits(state);
  const skipped = plan.skipped_for_budget + plan.skipped_unknown_price;
  const lines = [
    `  Prompts:         ${plan.prompt_count}${state.prompts?.range ? ` (range ${state.prompts.range} of ${state.prompts.all.length})` : ""}`,
    `  Matrix size:     ${plural(plan.matrix_blocks, "block")}, ${plural(plan.include_entries, "include")}, ${plural(plan.combinations, "combination")}`,
    `  Total jobs:      ${plan.jobs}`,
    `  Total images:    ${plan.images}`,
    `  Estimated cost:  ${usd(plan.estimated_cost_usd)} (${budgetText(limits.budgetUsd, limits.budgetMode)})`,
    `  Jobs to run:     ${plan.jobs_to_run}` +
      (skipped ? ` (skipped: ${plan.skipped_for_budget} over budget, ${plan.skipped_unknown_price} unknown price)` : ""),
    "",
  ];
  const rows = plan.breakdown.map((r) => [
    `${r.provider} / ${r.model}`,
    String(r.jobs),
    String(r.images),
    r.estimated_cost_usd === null ? "unknown" : usd(r.estimated_cost_usd) + (r.unknown_price_jobs ? "+?" : ""),
  ]);
  const shown = rows.slice(0, 6);
  const header = ["Provider / model", "Jobs", "Images", "Est. cost"];
  const numbers = [4, 6, 9].map((w, i) => Math.max(w, ...shown.map((r) => r[i + 1].length)));
  const nameWidth = Math.max(16, Math.min(width - 2 - numbers.reduce((a, b) => a + b + 2, 0), Math.max(...shown.map((r) => r[0].length))));
  const row = (cells: string[]) =>
    `  ${clip(cells[0], nameWidth).padEnd(nameWidth)}${cells
      .slice(1)
      .map((c, i) => `  ${c.padStart(numbers[i])}`)
      .join("")}`;
  lines.push(row(header), ...shown.map(row));
  if (rows.length > shown.length) lines.push(`  ... and ${rows.length - shown.length} more provider / model pairs`);
  return lines;
}

function warningLines(warnings: string[], width: number, max: number): string[] {
  if (warnings.length === 0) return ["  Warnings: none"];
  const lines = [`  Warnings (${warnings.length}):`];
  for (const w of warnings.slice(0, max)) lines.push(...wrap(w, width, "    - ", "      "));
  if (warnings.length > max) lines.push(`    ... and ${warnings.length - max} more (all of them: --dry-run)`);
  return lines;
}

function promptPreview(state: BuilderState, width: number): string[] {
  const loaded = state.prompts;
  if (!loaded) return [];
  const line = (label: string, p: { id: string; prompt: string }) => clip(`    ${label.padEnd(7)}${p.id}  ${p.prompt}`, width);
  const lines = [`  Loaded ${plural(loaded.all.length, "prompt")} from ${loaded.file}`];
  const all = loaded.all;
  const first = all.slice(0, Math.min(3, all.length));
  const last = all.length > 6 ? all.slice(-3) : all.slice(first.length);
  first.forEach((p, i) => lines.push(line(i === 0 ? "First:" : "", p)));
  if (all.length > 6) lines.push(`           ... ${all.length - 6} more ...`);
  last.forEach((p, i) => lines.push(line(i === 0 ? "Last:" : "", p)));
  return lines;
}

/** The builder's screen for this state at this width. */
export function renderBuilder(state: BuilderState, width = 80): Screen {
  const lines: string[] = [];
  let cursor: Screen["cursor"] = null;
  const focus = focusedField(state);
  const step = STEPS[state.step];
  const error = (field: FieldId | "plan") => {
    const text = state.errors[field];
    if (text) lines.push(...wrap(text, width, "  Error: ", "         "));
  };

  const textField = (field: TextFieldId) => {
    const value = state.text[field];
    const focused = focus === field;
    const prefix = `${focused ? ">" : " "} ${LABELS[field]}: `;
    if (prefix.length + 12 > width) {
      // A narrow terminal: the label on its own line, the value below it.
      lines.push(clip(prefix.trimEnd(), width));
      fieldValue("    ", value.text, value.cursor, focused);
    } else fieldValue(prefix, value.text, value.cursor, focused);
  };
  const fieldValue = (prefix: string, text: string, at: number, focused: boolean) => {
    const room = width - prefix.length - 1;
    const start = text.length <= room ? 0 : Math.max(0, Math.min(at - room + 1, text.length - room));
    const shown = text.slice(start, start + room);
    if (focused) cursor = { row: lines.length, col: prefix.length + at - start };
    lines.push(prefix + shown);
  };
  const buttons = () => {
    const label = (field: FieldId) =>
      field === "back" ? (state.step === 0 ? "Quit" : "Back") : state.step === STEPS.length - 1 ? "Run" : "Next";
    const button = (field: FieldId) => `${focus === field ? "> " : "  "}[ ${label(field)} ]`;
    lines.push("", `${button("back")}  ${button("next")}`);
  };

  lines.push(
    clip(`Batch run builder, step ${state.step + 1} of ${STEPS.length}: ${step.title}`, width),
    clip(SHORT_NAMES.map((name, i) => (i === state.step ? `[${name}]` : name)).join(" > "), width),
    "-".repeat(Math.min(width, 80)),
  );

  switch (step.id) {
    case "prompts":
      textField("promptsPath");
      if (state.candidates.prompts.length > 0) lines.push(clip(`  Files here: ${state.candidates.prompts.join(", ")}`, width));
      error("promptsPath");
      lines.push(...promptPreview(state, width));
      lines.push("");
      textField("range");
      error("range");
      if (state.prompts) {
        const s = state.prompts;
        lines.push(
          `  Selected: ${s.selected.length} of ${plural(s.all.length, "prompt")}${s.range ? ` (${s.selected[0].id} to ${s.selected[s.selected.length - 1].id})` : ""}`,
        );
      }
      break;
    case "matrix": {
      textField("matrixPath");
      if (state.candidates.matrix.length > 0) lines.push(clip(`  Files here: ${state.candidates.matrix.join(", ")}`, width));
      error("matrixPath");
      const m = state.matrix;
      if (m) {
        lines.push(
          clip(
            `  Loaded ${m.file}: ${plural(m.def.matrix.length, "block")}, ${plural(m.def.include.length, "include")}, ${plural(m.def.exclude.length, "exclude")}`,
            width,
          ),
        );
        const entries = [
          ...m.def.matrix.map((b, i) => [`Block ${i + 1}`, b] as const),
          ...m.def.include.map((b, i) => [`Include ${i + 1}`, b] as const),
        ];
        for (const [name, entry] of entries.slice(0, 6)) {
          // A block's lists wrap onto at most three lines; the rest is in the file.
          const described = wrap(describeEntry(entry), width, `    ${name}: `, "      ");
          lines.push(...described.slice(0, 3));
          if (described.length > 3) lines[lines.length - 1] = clip(`${lines[lines.length - 1]} ...`, width);
        }
        if (entries.length > 6) lines.push(`    ... and ${entries.length - 6} more`);
        if (state.plan && state.prompts) {
          lines.push(
            `  Expanded jobs: ${state.plan.jobs} (${plural(state.plan.combinations, "combination")} x ${plural(state.prompts.selected.length, "prompt")})`,
          );
          lines.push(...warningLines(state.plan.warnings, width, 5));
        }
      }
      error("plan");
      break;
    }
    case "plan":
      if (state.plan) {
        lines.push(...planLines(state.plan, state, width), "");
        lines.push(...warningLines(state.plan.warnings, width, 4));
      }
      error("plan");
      break;
    case "limits": {
      textField("concurrency");
      error("concurrency");
      textField("providerConcurrency");
      error("providerConcurrency");
      textField("budget");
      error("budget");
      lines.push(`${focus === "budgetMode" ? ">" : " "} Budget mode (Left/Right to change): < ${state.budgetMode} >`);
      lines.push(...wrap(`${state.budgetMode}: ${BUDGET_MODE_HELP[state.budgetMode]}`, width, "    ", "    "));
      lines.push("");
      if (state.plan) {
        lines.push(
          clip(
            `  With these limits: ${state.plan.jobs_to_run} of ${plural(state.plan.jobs, "job")} run, estimated ${usd(state.plan.estimated_cost_usd)}`,
            width,
          ),
        );
      }
      error("plan");
      break;
    }
    case "confirm": {
      const limits = effectiveLimits(state);
      const caps = formatProviderConcurrency(limits.providerConcurrency);
      if (state.prompts && state.matrix && state.plan) {
        lines.push(
          clip(
            `  Prompts:  ${state.prompts.file}, ${state.prompts.selected.length}${state.prompts.range ? ` (range ${state.prompts.range})` : ""}`,
            width,
          ),
          clip(`  Matrix:   ${state.matrix.file}, ${plural(state.plan.combinations, "combination")}`, width),
          clip(
            `  Jobs:     ${state.plan.jobs_to_run} to run of ${state.plan.jobs}, ${plural(state.plan.images, "image")}, estimated ${usd(state.plan.estimated_cost_usd)}`,
            width,
          ),
          clip(
            `  Limits:   concurrency ${limits.concurrency}${caps ? ` (${caps})` : ""}, ${budgetText(limits.budgetUsd, limits.budgetMode)}`,
            width,
          ),
          "",
        );
      }
      textField("out");
      error("out");
      lines.push("", "  Run writes run.json (status planned) into that folder, then starts the jobs.");
      lines.push("  The same run without the builder:");
      // Broken with a trailing backslash, so the lines paste into a shell as one command.
      const command = wrap(headlessCommandLine(optionsOf(state)), width - 2, "    ", "      ");
      lines.push(...command.map((line, i) => (i < command.length - 1 ? `${line} \\` : line)));
      break;
    }
  }
  const tailStart = lines.length;
  buttons();
  lines.push("");
  if (state.askQuit) {
    lines.push(...wrap("Quit the builder? Nothing has been written or run. y: quit, n: stay", width));
  } else {
    lines.push(
      ...wrap(`Keys: Tab or Down next, Shift-Tab or Up previous, Enter ${ENTER_DOES[focus] ?? "apply"},`, width),
      ...wrap("Esc back a step, q quit (Ctrl-C in a text field).", width),
    );
  }
  // Every line within the width (a long plan figure is cut, not wrapped by the terminal) and no
  // trailing blanks.
  return {
    lines: lines.map((line) => clip(line, width).trimEnd()),
    cursor: cursor as Screen["cursor"],
    tail: lines.length - tailStart,
  };
}

/**
 * The screen cut to a terminal of `rows` lines: the top and the tail (the buttons and the keys)
 * stay, the middle says how much it left out. A screen taller than the terminal would scroll and
 * break the next redraw.
 */
export function fitHeight(screen: Screen, rows: number): Screen {
  const keep = screen.tail;
  if (screen.lines.length <= rows || rows < keep + 3) return screen;
  const top = rows - keep - 1;
  const cut = screen.lines.length - keep - top;
  const lines = [...screen.lines.slice(0, top), `  ... ${cut} more lines (a taller terminal shows them)`, ...screen.lines.slice(-keep)];
  let cursor = screen.cursor;
  if (cursor && cursor.row >= top) cursor = cursor.row >= screen.lines.length - keep ? { ...cursor, row: cursor.row - cut + 1 } : null;
  return { lines, cursor, tail: keep };
}
