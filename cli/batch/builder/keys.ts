/**
 * The keys the terminal builder and the live status view act on, from node:readline's keypress
 * events (readline.emitKeypressEvents parses the escape sequences; a lone Esc arrives after its
 * own short timeout).
 */

/** One key press: a named key, or a printable character as `char`. */
export type Key =
  | { name: "up" | "down" | "left" | "right" | "home" | "end" }
  | { name: "tab"; shift: boolean }
  | { name: "enter" | "escape" | "backspace" | "delete" | "ctrl-c" | "ctrl-u" }
  | { name: "char"; char: string };

/** The shape of readline's keypress event's second argument (the parts read here). */
export interface KeypressInfo {
  name?: string;
  sequence?: string;
  ctrl?: boolean;
  meta?: boolean;
  shift?: boolean;
}

/** The Key of one readline keypress event; null for keys the views ignore (F-keys, Alt chords). */
export function keyFromKeypress(str: string | undefined, info: KeypressInfo | undefined): Key | null {
  const name = info?.name;
  if (info?.ctrl) {
    if (name === "c") return { name: "ctrl-c" };
    if (name === "u") return { name: "ctrl-u" };
    if (name === "a") return { name: "home" };
    if (name === "e") return { name: "end" };
    return null;
  }
  switch (name) {
    case "up":
    case "down":
    case "left":
    case "right":
    case "home":
    case "end":
    case "backspace":
    case "delete":
    case "escape":
      return { name };
    case "return":
    case "enter":
      return { name: "enter" };
    case "tab":
      return { name: "tab", shift: Boolean(info?.shift) };
  }
  if (info?.meta) return null;
  // readline names shift-Tab (ESC [ Z) "undefined" with that sequence on some Node versions.
  if (info?.sequence === "\u001b[Z") return { name: "tab", shift: true };
  if (typeof str === "string" && str.length === 1 && str >= " " && str !== "\u007f") return { name: "char", char: str };
  return null;
}
