import { readFileSync } from "node:fs";

/**
 * The variables of a .env file (KEY=value lines; `export ` allowed; # comments; values in single
 * or double quotes, double-quoted ones with \n escapes), or {} when there is no such file.
 */
export function readDotenv(file: string): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw error;
  }
  return parseDotenv(text);
}

/** Parses .env text as readDotenv does. */
export function parseDotenv(text: string): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const match = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
    if (!match) continue;
    const [, key, rest] = match;
    let value = rest;
    if (value.startsWith('"')) {
      const end = value.indexOf('"', 1);
      value = (end === -1 ? value.slice(1) : value.slice(1, end)).replace(/\\n/g, "\n").replace(/\\"/g, '"');
    } else if (value.startsWith("'")) {
      const end = value.indexOf("'", 1);
      value = end === -1 ? value.slice(1) : value.slice(1, end);
    } else {
      value = value.replace(/\s+#.*$/, "").trim();
    }
    variables[key] = value;
  }
  return variables;
}
