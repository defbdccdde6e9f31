import { describe, expect, it } from "vitest";
import { clip, clock, wrap } from "@/cli/batch/builder/fit-text";
import { keyFromKeypress, type Key } from "@/cli/batch/builder/keys";
import { fitHeight, renderBuilder } from "@/cli/batch/builder/render";
import { focusedField, initialState, pressKey, type BuilderFiles, type BuilderState } from "@/cli/batch/builder/state";
import { headlessCommandLine } from "@/cli/batch/options";

// The terminal builder's pure parts (cli/batch/builder): what each key does to its state and the
// exact lines it draws, over a small in-memory folder. The same builder on a real terminal is
// tests/cli/batch-builder-tmux.test.ts.

const PROMPTS = [
  "# food prompts",
  "A bowl of ramen with a soft egg",
  "",
  "A stack of pancakes with berries",
  "A slice of lemon tart",
  "A plate of dumplings",
  "A cup of hot chocolate",
  "A taco with lime",
  "A bowl of pho",
].join("\n");

const MATRIX = `version: 1
defaults:
  n: 1
matrix:
  - provider: mock
    model: [mock-image, mock-image-b]
    size: [256x256, 512x512]
limits:
  concurrency: 2
`;

const OPENAI_MATRIX = `version: 1
matrix:
  - provider: openai
    model: gpt-image-1
    size: 1024x1024
    provider_options:
      quality: [low, medium]
      colour: [red]
`;

/** A folder in memory: file name -> text; `runs/<name>/run.json` entries mark existing runs. */
function folder(files: Record<string, string>): BuilderFiles {
  return {
    read(file, maxBytes) {
      const text = files[file];
      if (text === undefined) throw new Error(`${file}: no such file here`);
      if (text.length > maxBytes) throw new Error(`${file}: more than the ${maxBytes} read`);
      return text;
    },
    exists: (file) => file in files || Object.keys(files).some((name) => name.startsWith(`${file}/`)),
    list: () => Object.keys(files).filter((name) => !name.includes("/")),
  };
}

const k = {
  enter: { name: "enter" } as Key,
  tab: { name: "tab", shift: false } as Key,
  shiftTab: { name: "tab", shift: true } as Key,
  esc: { name: "escape" } as Key,
  left: { name: "left" } as Key,
  right: { name: "right" } as Key,
  up: { name: "up" } as Key,
  backspace: { name: "backspace" } as Key,
  ctrlU: { name: "ctrl-u" } as Key,
  ctrlC: { name: "ctrl-c" } as Key,
};

/** Presses keys in order; a string is typed a character at a time. */
function press(state: BuilderState, files: BuilderFiles, ...keys: (Key | string)[]): BuilderState {
  for (const key of keys) {
    if (typeof key === "string") for (const char of key) state = pressKey(state, { name: "char", char }, files);
    else state = pressKey(state, key, files);
  }
  return state;
}

/** The error lines on the screen (an error and its wrapped continuation). */
const errorLines = (state: BuilderState) => renderBuilder(state).lines.filter((l) => /^ {2}Error: |^ {9}\S/.test(l));

const KEYS_APPLY = ["Keys: Tab or Down next, Shift-Tab or Up previous, Enter apply,", "Esc back a step, q quit (Ctrl-C in a text field)."];
const KEYS_PRESS = ["Keys: Tab or Down next, Shift-Tab or Up previous, Enter press,", "Esc back a step, q quit (Ctrl-C in a text field)."];
const RULE = "-".repeat(80);

describe("the builder's steps", () => {
  const files = folder({ "prompts.txt": PROMPTS, "matrix.yaml": MATRIX, "notes.md": "x" });

  it("opens on step 1 with the first prompt file here filled in and the cursor after it", () => {
    const screen = renderBuilder(initialState(files));
    expect(screen.lines).toEqual([
      "Batch run builder, step 1 of 5: Load prompts",
      "[Prompts] > Matrix > Plan > Limits > Run",
      RULE,
      "> Prompt file (.txt or .csv): prompts.txt",
      "  Files here: prompts.txt",
      "",
      "  Prompt range (FROM-TO, blank for all):",
      "",
      "  [ Quit ]    [ Next ]",
      "",
      ...KEYS_APPLY,
    ]);
    expect(screen.cursor).toEqual({ row: 3, col: "> Prompt file (.txt or .csv): prompts.txt".length });
  });

  it("step 1 shows the count, the first and last prompts and the range filter", () => {
    let state = press(initialState(files), files, k.enter);
    expect(focusedField(state)).toBe("range");
    state = press(state, files, "2-6", k.enter);
    expect(focusedField(state)).toBe("next");
    expect(renderBuilder(state).lines.slice(3)).toEqual([
      "  Prompt file (.txt or .csv): prompts.txt",
      "  Files here: prompts.txt",
      "  Loaded 7 prompts from prompts.txt",
      "    First: p-0001  A bowl of ramen with a soft egg",
      "           p-0002  A stack of pancakes with berries",
      "           p-0003  A slice of lemon tart",
      "           ... 1 more ...",
      "    Last:  p-0005  A cup of hot chocolate",
      "           p-0006  A taco with lime",
      "           p-0007  A bowl of pho",
      "",
      "  Prompt range (FROM-TO, blank for all): 2-6",
      "  Selected: 5 of 7 prompts (p-0002 to p-0006)",
      "",
      "  [ Quit ]  > [ Next ]",
      "",
      ...KEYS_PRESS,
    ]);
  });

  it("a range that is not FROM-TO, or selects nothing, is an error on the field and Next stays", () => {
    let state = press(initialState(files), files, k.enter, "9-3", k.enter);
    expect(focusedField(state)).toBe("range");
    expect(renderBuilder(state).lines).toContain('  Error: Range "9-3" is empty or starts below 1');
    state = press(state, files, k.ctrlU, "20-30", k.tab, k.tab);
    expect(renderBuilder(state).lines).toContain("  Error: Range 20-30 selects no prompt: the file has 7.");
    state = press(state, files, k.enter);
    expect(state.step).toBe(0);
    expect(focusedField(state)).toBe("range");
  });

  it("a missing, empty or wrongly named prompt file says which and what to do", () => {
    const more = folder({ "empty.txt": "# only a comment\n\n", "prompts.md": "x", "bad.csv": "id,text\n1,a\n" });
    const typed = (path: string) => errorLines(press(initialState(more), more, k.ctrlU, path, k.enter));
    expect(typed("")).toEqual(["  Error: Type the path of a .txt or .csv prompt file."]);
    expect(typed("prompts.md")).toEqual(["  Error: prompts.md: a prompt file ends in .txt or .csv."]);
    expect(typed("gone.txt")).toEqual(["  Error: gone.txt: no such file here"]);
    expect(typed("empty.txt")).toEqual([
      "  Error: empty.txt: no prompts (blank lines and lines starting with # are",
      "         skipped): write one prompt a line.",
    ]);
    expect(typed("bad.csv")).toEqual([
      '  Error: bad.csv, line 1: the required column "prompt" is missing (the header',
      '         has "id", "text"): name the column that holds the prompts "prompt"',
    ]);
  });

  it("step 2 shows the matrix's blocks, the expanded job count and the warnings", () => {
    const state = press(initialState(files), files, k.enter, "2-6", k.enter, k.enter, k.enter);
    expect(state.step).toBe(1);
    expect(focusedField(state)).toBe("next");
    expect(renderBuilder(state).lines).toEqual([
      "Batch run builder, step 2 of 5: Load matrix",
      "Prompts > [Matrix] > Plan > Limits > Run",
      RULE,
      "  Matrix file (.yaml, .yml or .json): matrix.yaml",
      "  Files here: matrix.yaml",
      "  Loaded matrix.yaml: 1 block, 0 includes, 0 excludes",
      "    Block 1: provider mock, model [mock-image, mock-image-b], size [256x256,",
      "      512x512]",
      "  Expanded jobs: 20 (4 combinations x 5 prompts)",
      "  Warnings: none",
      "",
      "  [ Back ]  > [ Next ]",
      "",
      ...KEYS_PRESS,
    ]);
  });

  it("a matrix error names the file, the YAML path and line; warnings list unknown options and prices", () => {
    const more = folder({ "p.txt": "one\ntwo\n", "m.yaml": "matrix: []\n", "o.yaml": OPENAI_MATRIX });
    let state = press(initialState(more), more, k.enter, k.enter, k.enter, k.ctrlU, "m.yaml", k.enter);
    expect(state.step).toBe(1);
    expect(errorLines(state)).toEqual(["  Error: m.yaml, line 1, at version: version is missing: add `version: 1` at the", "         top"]);
    state = press(state, more, k.ctrlU, "o.yaml", k.enter);
    const lines = renderBuilder(state).lines;
    expect(lines.slice(lines.indexOf("  Loaded o.yaml: 1 block, 0 includes, 0 excludes"), lines.indexOf("  [ Back ]  > [ Next ]"))).toEqual(
      [
        "  Loaded o.yaml: 1 block, 0 includes, 0 excludes",
        "    Block 1: provider openai, model gpt-image-1, size 1024x1024, quality [low,",
        "      medium], colour [red]",
        "  Expanded jobs: 4 (2 combinations x 2 prompts)",
        "  Warnings (1):",
        "    - provider_options.colour is not an option openai is known to take: passed",
        "      through as written",
        "",
      ],
    );
  });

  it("a size the provider cannot make and a file name the run folder cannot keep are refused as the headless command refuses them", () => {
    const more = folder({
      "p.txt": "one\n",
      "m.yaml": "version: 1\nmatrix:\n  - provider: openai\n    model: gpt-image-1\n    size: [1024x1024, 4:5]\n",
      "receipt-m.yaml": MATRIX,
    });
    let state = press(initialState(more), more, k.enter, k.enter, k.enter, k.ctrlU, "m.yaml", k.enter);
    expect(state.step).toBe(1);
    expect(state.matrix).toBeNull();
    expect(errorLines(state).join(" ").replace(/\s+/g, " ").trim()).toBe(
      "Error: m.yaml, line 5, at matrix[0].size: OpenAI's gpt-image models make sizes 1024x1024, 1536x1024, 1024x1536, auto, " +
        'not "4:5" (openai/gpt-image-1): change the value or move it to a block of a provider that makes it.',
    );
    state = press(state, more, k.ctrlU, "receipt-m.yaml", k.enter);
    expect(errorLines(state).join(" ").replace(/\s+/g, " ").trim()).toContain(
      "Error: receipt-m.yaml: the run folder keeps a copy of this file under its name, which must be a plain file name",
    );
  });

  it("step 3 reviews the plan: counts, cost against the budget, the provider and model breakdown", () => {
    const state = press(initialState(files), files, k.enter, "2-6", k.enter, k.enter, k.enter, k.enter);
    expect(state.step).toBe(2);
    expect(renderBuilder(state).lines).toEqual([
      "Batch run builder, step 3 of 5: Review plan",
      "Prompts > Matrix > [Plan] > Limits > Run",
      RULE,
      "  Prompts:         5 (range 2-6 of 7)",
      "  Matrix size:     1 block, 0 includes, 4 combinations",
      "  Total jobs:      20",
      "  Total images:    20",
      "  Estimated cost:  $0.00 (no budget, mode estimate)",
      "  Jobs to run:     20",
      "",
      "  Provider / model     Jobs  Images  Est. cost",
      "  mock / mock-image      10      10      $0.00",
      "  mock / mock-image-b    10      10      $0.00",
      "",
      "  Warnings: none",
      "",
      "  [ Back ]  > [ Next ]",
      "",
      ...KEYS_PRESS,
    ]);
  });

  it("step 4 starts from the matrix's limits; a bad value is refused on its field; the budget skips jobs", () => {
    const more = folder({ "p.txt": "one\ntwo\n", "o.yaml": OPENAI_MATRIX.replace("colour: [red]", "moderation: [low]") });
    let state = press(initialState(more), more, k.enter, k.enter, k.enter, k.enter, k.enter, k.enter);
    expect(state.step).toBe(3);
    state = press(state, more, k.ctrlU, "0", k.tab, "openai=1", k.tab, "0.05", k.tab, k.right, k.tab, k.tab, k.enter);
    expect(state.step).toBe(3);
    expect(focusedField(state)).toBe("concurrency");
    state = press(state, more, k.ctrlU, "4", k.tab);
    expect(renderBuilder(state).lines.slice(3)).toEqual([
      "  Concurrency (1-64, blank for the matrix's or 3): 4",
      "> Per-provider concurrency (e.g. openai=1,gemini=2): openai=1",
      "  Budget in USD (blank for the matrix's or none): 0.05",
      "  Budget mode (Left/Right to change): < strict >",
      "    strict: skips jobs without a known price; an overrun halts new jobs",
      "",
      // low ($0.011) fits $0.05, then medium ($0.042) would pass it: the rest are skipped
      "  With these limits: 1 of 4 jobs run, estimated $0.01",
      "",
      "  [ Back ]    [ Next ]",
      "",
      ...KEYS_APPLY,
    ]);
    expect(renderBuilder(press(state, more, k.tab, k.tab)).lines.at(-2)).toBe(
      "Keys: Tab or Down next, Shift-Tab or Up previous, Enter next,",
    );
  });

  it("step 5 proposes a folder that holds no run yet, refuses one that does, and shows the same run as a command", () => {
    const more = folder({ "prompts.txt": PROMPTS, "matrix.yaml": MATRIX, "runs/prompts/run.json": "{}" });
    let state = press(initialState(more), more, k.enter, "2-6", k.enter, k.enter, k.enter, k.enter, k.enter);
    state = press(state, more, k.ctrlU, "3", k.tab, "mock=2", k.tab, "5", k.tab, k.right, k.right, k.tab, k.tab, k.enter);
    expect(state.step).toBe(4);
    expect(state.text.out.text).toBe("runs/prompts-2");
    expect(renderBuilder(state).lines).toEqual([
      "Batch run builder, step 5 of 5: Confirm and run",
      "Prompts > Matrix > Plan > Limits > [Run]",
      RULE,
      "  Prompts:  prompts.txt, 5 (range 2-6)",
      "  Matrix:   matrix.yaml, 4 combinations",
      "  Jobs:     20 to run of 20, 20 images, estimated $0.00",
      "  Limits:   concurrency 3 (mock=2), budget mode off",
      "",
      "> Output folder: runs/prompts-2",
      "",
      "  Run writes run.json (status planned) into that folder, then starts the jobs.",
      "  The same run without the builder:",
      "    parallaxr batch-run --prompts prompts.txt --matrix matrix.yaml --out \\",
      "      runs/prompts-2 --concurrency 3 --provider-concurrency mock=2 --budget 5 \\",
      "      --budget-mode off --prompt-range 2-6",
      "",
      "  [ Back ]    [ Run ]",
      "",
      ...KEYS_APPLY,
    ]);
    const refused = press(state, more, k.ctrlU, "runs/prompts", k.enter);
    expect(renderBuilder(refused).lines.filter((l) => l.startsWith("  Error") || l.startsWith("         "))).toEqual([
      "  Error: runs/prompts holds a run already (run.json): choose another folder, or",
      "         continue it with parallaxr batch-run --out runs/prompts --resume.",
    ]);
    expect(press(refused, more, k.tab, k.tab, k.enter).result).toBeNull();

    const done = press(state, more, k.enter, k.enter);
    expect(done.result).toEqual({
      kind: "run",
      options: {
        promptsPath: "prompts.txt",
        matrixPath: "matrix.yaml",
        out: "runs/prompts-2",
        concurrency: 3,
        providerConcurrency: { mock: 2 },
        budgetUsd: 5,
        budgetMode: "off",
        promptRange: "2-6",
        dryRun: false,
        resume: false,
      },
    });
    if (done.result?.kind !== "run") throw new Error("no run");
    expect(headlessCommandLine(done.result.options)).toBe(
      "parallaxr batch-run --prompts prompts.txt --matrix matrix.yaml --out runs/prompts-2 --concurrency 3 " +
        "--provider-concurrency mock=2 --budget 5 --budget-mode off --prompt-range 2-6",
    );
  });

  it("Esc goes back a step with the choices kept; Shift-Tab and Up move the focus back", () => {
    let state = press(initialState(files), files, k.enter, "2-6", k.enter, k.enter, k.enter);
    expect(state.step).toBe(1);
    state = press(state, files, k.esc);
    expect(state.step).toBe(0);
    expect(state.text.range.text).toBe("2-6");
    expect(focusedField(press(state, files, k.shiftTab))).toBe("next");
    expect(focusedField(press(state, files, k.up, k.up))).toBe("back");
  });

  it("q and Esc on step 1 ask before quitting; n stays, y quits; Ctrl-C quits at once", () => {
    const start = initialState(files);
    const asked = press(start, files, k.esc);
    expect(asked.askQuit).toBe(true);
    expect(renderBuilder(asked).lines.at(-1)).toBe("Quit the builder? Nothing has been written or run. y: quit, n: stay");
    expect(press(asked, files, "n")).toMatchObject({ askQuit: false, result: null });
    expect(press(asked, files, "y").result).toEqual({ kind: "quit" });
    // q on a button asks; in a text field it is typed
    const onButton = press(start, files, k.tab, k.tab, "q");
    expect(onButton.askQuit).toBe(true);
    expect(press(start, files, "q").text.promptsPath.text).toBe("prompts.txtq");
    expect(press(start, files, "x", k.ctrlC).result).toEqual({ kind: "quit" });
  });

  it("text fields edit at the cursor (Left, Right, Backspace) and the cursor follows", () => {
    const state = press(initialState(files), files, k.left, k.left, k.left, k.left, k.backspace, "-x", k.right);
    expect(state.text.promptsPath).toEqual({ text: "prompt-x.txt", cursor: 9 });
    expect(renderBuilder(state).cursor).toEqual({ row: 3, col: "> Prompt file (.txt or .csv): prompt-x.".length });
  });
});

describe("screen fitting", () => {
  it("a screen taller than the terminal keeps its top and its last five lines and says what it left out", () => {
    const screen = { lines: Array.from({ length: 30 }, (_, i) => `line ${i}`), cursor: { row: 27, col: 3 }, tail: 5 };
    const fitted = fitHeight(screen, 24);
    expect(fitted.lines).toHaveLength(24);
    expect(fitted.lines.slice(16, 20)).toEqual(["line 16", "line 17", "  ... 7 more lines (a taller terminal shows them)", "line 25"]);
    expect(fitted.cursor).toEqual({ row: 21, col: 3 });
    expect(fitted.lines[21]).toBe("line 27");
    expect(fitHeight({ lines: ["a"], cursor: null, tail: 1 }, 24).lines).toEqual(["a"]);
  });

  it("on a short, narrow terminal the buttons and the keys, wrapped, stay in view", () => {
    const files = folder({ "prompts.txt": PROMPTS, "matrix.yaml": MATRIX });
    const state = press(initialState(files), files, k.enter, k.enter, k.enter, k.enter, k.enter);
    expect(state.step).toBe(2);
    const screen = fitHeight(renderBuilder(state, 56), 18);
    expect(screen.lines).toHaveLength(18);
    expect(screen.lines.slice(-8)).toEqual([
      "  Provider / model     Jobs  Images  Est. cost",
      "  ... 4 more lines (a taller terminal shows them)",
      "",
      "  [ Back ]  > [ Next ]",
      "",
      "Keys: Tab or Down next, Shift-Tab or Up previous, Enter",
      "press,",
      "Esc back a step, q quit (Ctrl-C in a text field).",
    ]);
  });

  it("every line of every step fits 80 columns, and 40 on a narrow terminal", () => {
    const files = folder({ "prompts.txt": PROMPTS.replace("ramen", "ramen ".repeat(30)), "matrix.yaml": MATRIX });
    let state = initialState(files);
    for (const keys of [
      [k.enter],
      ["2-6", k.enter, k.enter],
      [k.enter, k.enter],
      [k.enter],
      [k.tab, k.tab, k.tab, k.tab, k.tab, k.enter],
    ]) {
      state = press(state, files, ...keys);
      for (const width of [80, 40])
        for (const line of renderBuilder(state, width).lines) expect(line.length, line).toBeLessThanOrEqual(width);
    }
    expect(state.step).toBe(4);
  });

  it("wrap, clip and clock", () => {
    expect(wrap("a bb ccc dddd", 8, "- ", "  ")).toEqual(["- a bb", "  ccc", "  dddd"]);
    expect(wrap("x".repeat(12), 8, "> ", "  ")).toEqual(["> xxxxxx", "  xxxxxx"]);
    expect(clip("abcdefghij", 8)).toBe("abcde...");
    expect(clip("abc", 8)).toBe("abc");
    expect([clock(5), clock(65), clock(3725)]).toEqual(["0:05", "1:05", "1:02:05"]);
  });
});

describe("keys from readline's keypress events", () => {
  it("maps names, Shift-Tab, Ctrl chords and printable characters; ignores the rest", () => {
    expect(keyFromKeypress("\r", { name: "return" })).toEqual({ name: "enter" });
    expect(keyFromKeypress(undefined, { name: "tab", shift: true, sequence: "\u001b[Z" })).toEqual({ name: "tab", shift: true });
    expect(keyFromKeypress("\t", { name: "tab" })).toEqual({ name: "tab", shift: false });
    expect(keyFromKeypress(undefined, { name: "up" })).toEqual({ name: "up" });
    expect(keyFromKeypress("\u0003", { name: "c", ctrl: true })).toEqual({ name: "ctrl-c" });
    expect(keyFromKeypress("q", { name: "q" })).toEqual({ name: "char", char: "q" });
    expect(keyFromKeypress("=", undefined)).toEqual({ name: "char", char: "=" });
    expect(keyFromKeypress(undefined, { name: "f5" })).toBeNull();
    expect(keyFromKeypress("x", { name: "x", meta: true })).toBeNull();
  });
});
