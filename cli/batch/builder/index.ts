/**
 * `interactiveBuilder`: the batch-run builder in a terminal (spec: image-batch-runs.md, "Batch run
 * builder"). Raw-mode keys through node:readline's keypress parser, the whole screen redrawn on
 * the alternate screen after each key (a few dozen lines of plain text, so a full redraw costs
 * nothing worth saving). Resolves to the run's options, or null when the user quits; either way
 * the terminal is given back as it was.
 */
import { closeSync, openSync, readdirSync, readSync, statSync, existsSync } from "node:fs";
import path from "node:path";
import { emitKeypressEvents } from "node:readline";
import { headlessCommandLine, type BatchRunOptions } from "../options";
import { keyFromKeypress, type KeypressInfo } from "./keys";
import { fitHeight, renderBuilder } from "./render";
import { initialState, pressKey, type BuilderFiles, type BuilderState } from "./state";

export interface TerminalIo {
  input: NodeJS.ReadStream;
  output: NodeJS.WriteStream;
  cwd: string;
}

const ESC = "\u001b[";

/** The working directory's files as the builder reads them: sizes checked before a byte is read. */
export function directoryFiles(cwd: string): BuilderFiles {
  const resolve = (file: string) => path.resolve(cwd, file);
  return {
    read(file, maxBytes) {
      const full = resolve(file);
      let size: number;
      try {
        const stat = statSync(full);
        if (stat.isDirectory()) throw new Error(`${file} is a folder: type the path of a file in it`);
        size = stat.size;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new Error(`${file}: no such file here (${cwd})`);
        throw error;
      }
      if (size > maxBytes) throw new Error(`${file}: ${size} bytes, more than the ${maxBytes} read: split it`);
      const buffer = Buffer.alloc(size);
      const fd = openSync(full, "r");
      try {
        let read = 0;
        while (read < size) {
          const n = readSync(fd, buffer, read, size - read, read);
          if (n === 0) break;
          read += n;
        }
        return buffer.subarray(0, read).toString("utf8");
      } finally {
        closeSync(fd);
      }
    },
    exists: (file) => existsSync(resolve(file)),
    list() {
      try {
        return readdirSync(cwd, { withFileTypes: true })
          .filter((entry) => entry.isFile())
          .map((entry) => entry.name);
      } catch {
        return [];
      }
    },
  };
}

/** Draws the screen from the top left of the alternate screen, each line cleared to its end. */
function draw(io: TerminalIo, state: BuilderState): void {
  const width = Math.max(40, io.output.columns || 80);
  const rows = io.output.rows || 24;
  const screen = fitHeight(renderBuilder(state, width), rows);
  let text = `${ESC}?25l${ESC}H`;
  text += screen.lines.map((line) => `${line}${ESC}K`).join("\r\n");
  text += `${ESC}J`;
  if (screen.cursor) text += `${ESC}${screen.cursor.row + 1};${screen.cursor.col + 1}H${ESC}?25h`;
  io.output.write(text);
}

/**
 * The builder on this terminal: the five steps, then the options to run with (null: the user
 * quit). On finish it prints the equivalent headless command line (the spec's parity rule).
 * Needs a TTY for input (raw mode); the caller sends other inputs to the headless flags.
 */
export function interactiveBuilder(io: TerminalIo): Promise<BatchRunOptions | null> {
  const { input, output } = io;
  if (!input.isTTY) {
    return Promise.reject(new Error("the batch-run builder needs a terminal: give --prompts, --matrix and --out to run without it"));
  }
  const files = directoryFiles(io.cwd);
  let state = initialState(files);
  return new Promise((resolve) => {
    const wasRaw = input.isRaw;
    emitKeypressEvents(input);
    input.setRawMode(true);
    input.resume();
    output.write(`${ESC}?1049h`);
    const redraw = () => draw(io, state);
    const onKey = (str: string | undefined, info: KeypressInfo | undefined) => {
      const key = keyFromKeypress(str, info);
      if (!key) return;
      state = pressKey(state, key, files);
      if (!state.result) {
        redraw();
        return;
      }
      input.off("keypress", onKey);
      output.off("resize", redraw);
      input.setRawMode(wasRaw);
      input.pause();
      output.write(`${ESC}?25h${ESC}?1049l`);
      if (state.result.kind === "quit") {
        output.write("Batch run builder: quit, nothing was written.\n");
        resolve(null);
        return;
      }
      output.write(`The same run without the builder:\n  ${headlessCommandLine(state.result.options)}\n`);
      resolve(state.result.options);
    };
    input.on("keypress", onKey);
    output.on("resize", redraw);
    redraw();
  });
}
