import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// lib/api is imported by the browser (request and answer types, the schemas the forms share) as
// well as by the route handlers: it may import zod, lib/core and itself only, and no Node global,
// or a client component would pull server code (or a Buffer polyfill) into the bundle.
const API_DIRECTORY = fileURLToPath(new URL("../../../lib/api", import.meta.url));
const ALLOWED = [/^zod$/, /^@\/lib\/core\//, /^\.\//, /^@\/lib\/api\//];
const NODE_GLOBALS = /\b(Buffer|process|require)\s*[.(]/;

function importedModules(source: string): string[] {
  const patterns = [/\bfrom\s*["']([^"']+)["']/g, /\bimport\s*["']([^"']+)["']/g, /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g];
  return patterns.flatMap((pattern) => [...source.matchAll(pattern)].map((match) => match[1]));
}

function violations(source: string): string[] {
  const found = importedModules(source)
    .filter((name) => !ALLOWED.some((pattern) => pattern.test(name)))
    .map((name) => `imports ${name}`);
  if (NODE_GLOBALS.test(source)) found.push("uses a Node global");
  return found;
}

describe("lib/api is safe for the browser", () => {
  it("imports only zod, lib/core and lib/api, and no Node global", () => {
    const files = readdirSync(API_DIRECTORY).filter((name) => name.endsWith(".ts"));
    expect(files).toEqual(expect.arrayContaining(["schemas.ts", "responses.ts", "types.ts"]));
    const report = files.flatMap((name) =>
      violations(readFileSync(join(API_DIRECTORY, name), "utf8")).map((violation) => `${name} ${violation}`),
    );
    expect(report).toEqual([]);
  });

  it("flags a server import and Buffer", () => {
    expect(violations('import { x } from "@/lib/server/json-depth-exceeds";')).toEqual(["imports @/lib/server/json-depth-exceeds"]);
    expect(violations('import { asUser } from "@/lib/db/as-user";')).toEqual(["imports @/lib/db/as-user"]);
    expect(violations("const n = Buffer.byteLength(text);")).toEqual(["uses a Node global"]);
    expect(violations('import { z } from "zod";\nimport { f } from "@/lib/core/template";')).toEqual([]);
  });
});
