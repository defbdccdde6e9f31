import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, it, expect } from "vitest";

// The layers of DESIGN.md, held where they are. Each rule names the folders it starts from and
// what they may not reach, following every import (type-only ones too: a type is a promise about
// the other side's internals, and the next edit turns it into a value). A crossing is reported as
// the import that makes it, with the chain from the layer that reached it.
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const SOURCE_FOLDERS = ["app", "components", "lib", "cli", "bench"];
const SOURCE_FILE = /\.(ts|tsx|mts|cts|js|mjs)$/;
const RESOLVED_EXTENSIONS = [".ts", ".tsx", ".mts", ".cts", ".js", ".mjs", ".json", "/index.ts", "/index.tsx"];

/** A forbidden reach: from files under `from`, no import chain may arrive at a `forbidden` module. */
interface BoundaryRule {
  name: string;
  from: RegExp;
  forbidden: RegExp;
  why: string;
  /** Only the files' own imports count, not what those modules import in turn. */
  direct?: boolean;
}

const BROWSER_CODE = /^(components|lib\/client)\//;
// Modules that the worker (cli/worker.ts), the CLI and vitest load without Next.
const OUTSIDE_NEXT = /^(lib\/(db|engine|services|providers|auth|core)|cli)\//;
// Only Next loads these: a route handler, or the server helpers that only route handlers import.
const NEXT_ONLY = /^(lib\/server\/|app\/(.+\/)?route\.(ts|tsx)$)/;
const ROUTE_HANDLER = /^app\/(.+\/)?route\.(ts|tsx)$/;

const RULES: BoundaryRule[] = [
  {
    name: "browser code stays out of the server layers",
    from: BROWSER_CODE,
    forbidden: /^lib\/(db|engine|services|server|auth|realtime)(\/|$)/,
    why: "components/ and lib/client/ are bundled for the browser; what they need from the server is an API answer, typed in lib/api/types.ts (lib/realtime is the server's side of the events; subscribeToRun is in lib/client)",
  },
  {
    name: "the database layer does not decide prices",
    from: /^lib\/db\//,
    forbidden: /^lib\/providers\/pricing-reference(\.(ts|json))?$/,
    why: "lib/db stores and reads the user's prices; falling back to the shipped reference is the engine's policy",
  },
  {
    name: "the database layer stays below the engine and the server",
    from: /^lib\/db\//,
    forbidden: /^lib\/(engine|server|realtime)(\/|$)/,
    why: "lib/db answers queries; the engine decides (errors such as RunActionError are thrown there, from lib/engine/errors.ts)",
  },
  {
    name: "providers are wired to the database in a composition root, not in lib/providers",
    from: /^lib\/providers\//,
    forbidden: /^lib\/(db|engine|server|realtime|auth)(\/|$)/,
    why: "adapters and the registry take credentials as arguments; lib/server/default-registry.ts wires them to stored keys",
  },
  {
    name: "services stay below the server and away from the browser",
    from: /^lib\/services\//,
    forbidden: /^(lib\/(server|client)|components|app)(\/|$)/,
    why: "the routes, the CLI and the worker call the same services in plain Node: lib/server has server-only, and an error with an HTTP meaning is a domain error of lib/engine/errors.ts that lib/server/http-errors.ts maps",
  },
  {
    name: "route handlers reach the database through a service",
    from: ROUTE_HANDLER,
    forbidden: /^lib\/db(\/|$)/,
    why: "a handler parses with route()'s schemas and calls one service of lib/services, which runs as the user (asUser) and holds the queries it needs",
    direct: true,
  },
  {
    name: "the error table reads errors from errors modules only",
    from: /^lib\/server\/http-errors\.ts$/,
    forbidden: /^lib\/(?!.*\/errors\.ts$)(db|engine|realtime|providers|auth)\//,
    why: "an error class lives in its layer's errors.ts, not beside the SQL or the service that throws it",
    direct: true,
  },
];

interface ModuleImport {
  /** The specifier as written. */
  specifier: string;
  line: number;
  /** Repository-relative path of the imported module; null for a package. */
  target: string | null;
}

function toRepositoryPath(absolutePath: string): string {
  return relative(ROOT, absolutePath).split(sep).join("/");
}

/** Whether a repository path is a file on disk. */
function isFile(path: string): boolean {
  const absolute = join(ROOT, path);
  return existsSync(absolute) && statSync(absolute).isFile();
}

/** The file an import names: the path as written, else with the extensions the bundler tries. */
function resolveModule(fromFile: string, specifier: string, exists: (path: string) => boolean): string | null {
  let base: string;
  if (specifier.startsWith("@/")) base = specifier.slice(2);
  else if (specifier.startsWith(".")) base = toRepositoryPath(resolve(dirname(join(ROOT, fromFile)), specifier));
  else return null;
  // An import of a file that does not exist still says where it points; tsc reports the rest.
  return [base, ...RESOLVED_EXTENSIONS.map((extension) => base + extension)].find(exists) ?? base;
}

/**
 * Every module a source text names: static imports (type-only too), `export ... from`, dynamic
 * `import()`, `require()` and side-effect imports. TypeScript's own scanner skips comments and
 * strings, which a regular expression would not.
 */
function importsOf(file: string, source: string, exists: (path: string) => boolean): ModuleImport[] {
  const { importedFiles } = ts.preProcessFile(source, true, true);
  return importedFiles.map(({ fileName, pos }) => ({
    specifier: fileName,
    line: source.slice(0, pos).split("\n").length,
    target: resolveModule(file, fileName, exists),
  }));
}

function sourceFiles(): string[] {
  return SOURCE_FOLDERS.flatMap((folder) => {
    const absolute = join(ROOT, folder);
    if (!existsSync(absolute)) return [];
    return readdirSync(absolute, { recursive: true, encoding: "utf8" })
      .filter((name) => SOURCE_FILE.test(name) && !name.split(sep).includes("node_modules"))
      .map((name) => toRepositoryPath(join(absolute, name)));
  });
}

/** The import graph of the given sources: file -> its imports. */
function importGraph(sources: Map<string, string>): Map<string, ModuleImport[]> {
  const exists = (path: string) => sources.has(path) || isFile(path);
  return new Map([...sources].map(([file, source]) => [file, importsOf(file, source, exists)]));
}

function readSources(): Map<string, string> {
  return new Map(sourceFiles().map((file) => [file, readFileSync(join(ROOT, file), "utf8")]));
}

/**
 * The imports by which files matching `from` reach a module matching `forbidden`, directly or
 * (unless the rule is direct) through other modules: one line per offending import, with the
 * chain that led there.
 */
function crossings(graph: Map<string, ModuleImport[]>, rule: Pick<BoundaryRule, "from" | "forbidden" | "direct">): string[] {
  const found = new Map<string, string>();
  // How each file was first reached: the chain of files from a file of the layer.
  const chains = new Map<string, string[]>();
  const queue: string[] = [];
  for (const file of [...graph.keys()].sort()) {
    if (rule.from.test(file) && !rule.forbidden.test(file)) {
      chains.set(file, [file]);
      queue.push(file);
    }
  }
  while (queue.length > 0) {
    const file = queue.shift()!;
    const chain = chains.get(file)!;
    for (const { specifier, line, target } of graph.get(file) ?? []) {
      if (target === null) continue;
      if (rule.forbidden.test(target)) {
        const key = `${file}:${line}`;
        if (!found.has(key)) {
          const via = chain.length > 1 ? ` (reached from ${chain.join(" -> ")})` : "";
          found.set(key, `${file}:${line} imports "${specifier}" (${target})${via}`);
        }
      } else if (!rule.direct && !chains.has(target) && graph.has(target)) {
        chains.set(target, [...chain, target]);
        queue.push(target);
      }
    }
  }
  return [...found.values()].sort();
}

const SERVER_ONLY = "server-only";

/** Files that import "server-only" where Next is not the only loader. */
function misplacedServerOnly(graph: Map<string, ModuleImport[]>): string[] {
  return [...graph]
    .filter(([file, imports]) => !NEXT_ONLY.test(file) && imports.some(({ specifier }) => specifier === SERVER_ONLY))
    .map(([file, imports]) => `${file}:${imports.find(({ specifier }) => specifier === SERVER_ONLY)!.line} imports "${SERVER_ONLY}"`)
    .sort();
}

/** Imports by which the worker's, the CLI's and the tests' modules reach a server-only module. */
function serverOnlyReach(graph: Map<string, ModuleImport[]>): string[] {
  const serverOnlyFiles = [...graph]
    .filter(([, imports]) => imports.some(({ specifier }) => specifier === SERVER_ONLY))
    .map(([file]) => file);
  if (serverOnlyFiles.length === 0) return [];
  const escaped = serverOnlyFiles.map((file) => file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return crossings(graph, { from: OUTSIDE_NEXT, forbidden: new RegExp(`^(${escaped.join("|")})$`) });
}

describe("layer boundaries", () => {
  const graph = importGraph(readSources());

  it("reads the source tree", () => {
    expect([...graph.keys()]).toEqual(
      expect.arrayContaining([
        "components/workbench.tsx",
        "lib/client/api.ts",
        "lib/db/database.ts",
        "cli/worker.ts",
        "app/api/v1/runs/route.ts",
      ]),
    );
  });

  it.each(RULES)("$name", (rule) => {
    expect(crossings(graph, rule), `${rule.name}: ${rule.why}`).toEqual([]);
  });

  it('imports "server-only" only in modules that Next alone loads (lib/server/, app/**/route.ts)', () => {
    expect(
      misplacedServerOnly(graph),
      "lib/db, lib/engine, lib/providers, lib/auth, lib/core and cli/ run in the worker, the CLI and vitest",
    ).toEqual([]);
  });

  it('keeps the worker, the CLI and vitest away from "server-only" modules', () => {
    expect(serverOnlyReach(graph), "a server-only module throws when imported outside Next").toEqual([]);
  });

  describe("the checker itself", () => {
    const graphOf = (files: Record<string, string>) => importGraph(new Map(Object.entries(files)));
    const browserRule = RULES[0];

    it.each([
      ['import { getRun } from "@/lib/db/runs/no-such-query";', "lib/db/runs/no-such-query"],
      ['import type { Database } from "@/lib/db/database";', "lib/db/database.ts"],
      ['import { type Database } from "../../lib/db/database";', "lib/db/database.ts"],
      ['export type { Caller } from "@/lib/auth/resolve-caller";', "lib/auth/resolve-caller.ts"],
      ['export * from "@/lib/engine/errors";', "lib/engine/errors.ts"],
      ['const m = await import("@/lib/server/route");', "lib/server/route.ts"],
      ['import "@/lib/server/http-errors";', "lib/server/http-errors.ts"],
      ['const { x } = require("../../lib/engine/worker");', "lib/engine/worker.ts"],
    ])("flags %s in a component", (source, target) => {
      const report = crossings(graphOf({ "components/run/x.tsx": source }), browserRule);
      expect(report).toHaveLength(1);
      expect(report[0]).toContain("components/run/x.tsx:1 imports");
      expect(report[0]).toContain(`(${target})`);
    });

    it("follows imports through other modules and names the chain", () => {
      const report = crossings(
        graphOf({
          "lib/client/a.ts": 'import { b } from "../api/b";',
          "lib/api/b.ts": '// a comment\nimport type { Database } from "@/lib/db/database";',
        }),
        browserRule,
      );
      expect(report).toEqual([
        'lib/api/b.ts:2 imports "@/lib/db/database" (lib/db/database.ts) (reached from lib/client/a.ts -> lib/api/b.ts)',
      ]);
    });

    it("ignores comments, strings, allowed layers and look-alike names", () => {
      const source = [
        '// import { x } from "@/lib/db/database";',
        '/* import("@/lib/server/route") */',
        'const text = "import y from \\"@/lib/engine/worker\\"";',
        'import { api } from "@/lib/api/types";',
        'import { dbish } from "@/lib/dbish/thing";',
        'import { z } from "zod";',
      ].join("\n");
      expect(crossings(graphOf({ "components/x.tsx": source }), browserRule)).toEqual([]);
    });

    it("flags the reference prices in lib/db, as .ts or .json", () => {
      const rule = RULES[1];
      expect(
        crossings(graphOf({ "lib/db/runs/x.ts": 'import { referencePrice } from "@/lib/providers/pricing-reference";' }), rule),
      ).toHaveLength(1);
      expect(crossings(graphOf({ "lib/db/runs/x.ts": 'import prices from "../../providers/pricing-reference.json";' }), rule)).toHaveLength(
        1,
      );
      expect(crossings(graphOf({ "lib/db/runs/x.ts": 'import type { Price } from "@/lib/core/cost";' }), rule)).toEqual([]);
    });

    it("flags an error class taken from a module that is not an errors module, and only there", () => {
      const rule = RULES.find(({ name }) => name.startsWith("the error table"))!;
      const report = crossings(
        graphOf({
          "lib/server/http-errors.ts": [
            'import { RunActionError } from "@/lib/db/runs/run-lifecycle";',
            'import { NotFoundError } from "@/lib/engine/errors";',
            'import { UnauthorizedError } from "@/lib/auth/errors";',
          ].join("\n"),
          "lib/engine/errors.ts": 'import { x } from "@/lib/engine/run-limits";',
        }),
        rule,
      );
      expect(report).toEqual(['lib/server/http-errors.ts:1 imports "@/lib/db/runs/run-lifecycle" (lib/db/runs/run-lifecycle.ts)']);
    });

    it("flags a route handler importing lib/db, types included, and not one that calls a service", () => {
      const rule = RULES.find(({ name }) => name.startsWith("route handlers reach"))!;
      const report = crossings(
        graphOf({
          "app/api/v1/prompts/route.ts":
            'import { asUser } from "@/lib/db/as-user";\nimport { listPrompts } from "@/lib/services/prompts";',
          "app/api/v1/prompts/[id]/route.ts": 'import type { PromptRow } from "../../../../../lib/db/prompts/prompts";',
          "app/api/v1/cache/route.ts": 'import { clearCache } from "@/lib/services/cache";',
          "lib/services/prompts.ts": 'import { listPrompts } from "@/lib/db/prompts/prompts";',
          "app/page.tsx": 'import { x } from "@/lib/db/database";',
        }),
        rule,
      );
      expect(report).toEqual([
        'app/api/v1/prompts/[id]/route.ts:1 imports "../../../../../lib/db/prompts/prompts" (lib/db/prompts/prompts.ts)',
        'app/api/v1/prompts/route.ts:1 imports "@/lib/db/as-user" (lib/db/as-user.ts)',
      ]);
    });

    it("flags a service reaching lib/server, directly or through another module", () => {
      const rule = RULES.find(({ name }) => name.startsWith("services stay below"))!;
      const report = crossings(
        graphOf({
          "lib/services/keys.ts": 'import { HttpError } from "@/lib/server/http-errors";',
          "lib/services/prompts.ts": 'import { helper } from "@/lib/engine/helper";\nimport { asUser } from "@/lib/db/as-user";',
          "lib/engine/helper.ts": 'import { getAppContext } from "@/lib/server/context";',
          "lib/services/cache.ts": 'import { Button } from "@/components/ui/button";',
        }),
        rule,
      );
      expect(report).toEqual([
        'lib/engine/helper.ts:1 imports "@/lib/server/context" (lib/server/context.ts) (reached from lib/services/prompts.ts -> lib/engine/helper.ts)',
        'lib/services/cache.ts:1 imports "@/components/ui/button" (components/ui/button)',
        'lib/services/keys.ts:1 imports "@/lib/server/http-errors" (lib/server/http-errors.ts)',
      ]);
    });

    it('allows "server-only" in lib/server and route handlers, and nowhere else', () => {
      const report = misplacedServerOnly(
        graphOf({
          "lib/server/route.ts": 'import "server-only";',
          "app/api/v1/runs/[id]/route.ts": 'import "server-only";',
          "lib/db/database.ts": 'import "server-only";',
          "cli/parallaxr.ts": 'import "server-only";',
          "app/page.tsx": 'import "server-only";',
        }),
      );
      expect(report).toEqual([
        'app/page.tsx:1 imports "server-only"',
        'cli/parallaxr.ts:1 imports "server-only"',
        'lib/db/database.ts:1 imports "server-only"',
      ]);
    });

    it('flags the worker reaching a "server-only" module through lib/server', () => {
      const report = serverOnlyReach(
        graphOf({
          "cli/worker.ts": 'import { createDefaultProviderRegistry } from "@/lib/server/default-registry";',
          "lib/server/default-registry.ts": 'import "server-only";',
          "lib/server/route.ts": 'import "server-only";',
        }),
      );
      expect(report).toEqual(['cli/worker.ts:1 imports "@/lib/server/default-registry" (lib/server/default-registry.ts)']);
    });
  });
});
