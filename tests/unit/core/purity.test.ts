import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it, expect } from "vitest";

// lib/core must run anywhere (browser, Web Worker, CLI, server), so it may not reach for a
// framework, a database or the host. node:crypto is the one exception, for cache keys only.
const CORE_DIRECTORY = fileURLToPath(new URL("../../../lib/core", import.meta.url));
const CRYPTO_ALLOWED_IN = new Set(["cache-key.ts"]);

const FORBIDDEN_MODULES = [
  /^next(\/.*)?$/,
  /^react(-dom)?(\/.*)?$/,
  /^pg(\/.*)?$/,
  /^@electric-sql\/pglite(\/.*)?$/,
  /^(node:)?fs(\/.*)?$/,
  /^(node:)?path(\/.*)?$/,
];
const CRYPTO_MODULE = /^(node:)?crypto$/;

/** Module specifiers in static imports, re-exports, dynamic imports and require calls. */
function importedModules(source: string): string[] {
  const patterns = [
    /\bfrom\s*["']([^"']+)["']/g,
    /\bimport\s*["']([^"']+)["']/g,
    /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g,
    /\brequire\s*\(\s*["']([^"']+)["']\s*\)/g,
  ];
  return patterns.flatMap((pattern) => [...source.matchAll(pattern)].map((match) => match[1]));
}

/** What a file under lib/core does that it must not; empty when it is pure. */
function purityViolations(fileName: string, source: string): string[] {
  const violations: string[] = [];
  for (const moduleName of importedModules(source)) {
    if (FORBIDDEN_MODULES.some((pattern) => pattern.test(moduleName))) violations.push(`imports ${moduleName}`);
    if (CRYPTO_MODULE.test(moduleName) && !CRYPTO_ALLOWED_IN.has(fileName)) violations.push(`imports ${moduleName}`);
  }
  if (/process\s*\.\s*env/.test(source)) violations.push("mentions process.env");
  return violations;
}

function coreFiles(): string[] {
  return readdirSync(CORE_DIRECTORY, { recursive: true, encoding: "utf8" })
    .filter((name) => /\.(ts|tsx|mts|cts|js|mjs)$/.test(name))
    .map((name) => join(CORE_DIRECTORY, name));
}

describe("lib/core purity", () => {
  it("finds the core modules", () => {
    const names = coreFiles().map((path) => relative(CORE_DIRECTORY, path));
    expect(names).toEqual(expect.arrayContaining(["template.ts", "cache-key.ts", "expected-output.ts"]));
  });

  it("has no file that imports a framework, a database driver, the file system or process.env", () => {
    const report = coreFiles().flatMap((path) => {
      const fileName = relative(CORE_DIRECTORY, path);
      return purityViolations(fileName, readFileSync(path, "utf8")).map((violation) => `${fileName} ${violation}`);
    });
    expect(report).toEqual([]);
  });

  describe("the checker itself", () => {
    it.each([
      ['import { NextResponse } from "next/server";', "imports next/server"],
      ["import React from 'react';", "imports react"],
      ['import { Pool } from "pg";', "imports pg"],
      ['import { PGlite } from "@electric-sql/pglite";', "imports @electric-sql/pglite"],
      ['import { readFileSync } from "node:fs";', "imports node:fs"],
      ['import fs from "fs";', "imports fs"],
      ['import { readFile } from "fs/promises";', "imports fs/promises"],
      ['import path from "node:path";', "imports node:path"],
      ['const m = await import("node:fs");', "imports node:fs"],
      ['const pg = require("pg");', "imports pg"],
      ['export { x } from "react-dom";', "imports react-dom"],
      ['import "next";', "imports next"],
      ["const key = process.env.OPENROUTER_API_KEY;", "mentions process.env"],
      ['import { createHash } from "node:crypto";', "imports node:crypto"],
    ])("flags %s", (source, violation) => {
      expect(purityViolations("template.ts", source)).toContain(violation);
    });

    it("allows node:crypto in cache-key.ts and other modules anywhere", () => {
      expect(purityViolations("cache-key.ts", 'import { createHash } from "node:crypto";')).toEqual([]);
      expect(purityViolations("template.ts", 'import { z } from "zod";\nimport { estimateTokens } from "@/lib/core/tokens";')).toEqual([]);
    });

    it("does not mistake similar names for forbidden modules", () => {
      expect(
        purityViolations("template.ts", 'import x from "nextra";\nimport y from "pg-format";\nimport z from "@/lib/core/path-utils";'),
      ).toEqual([]);
    });
  });
});
