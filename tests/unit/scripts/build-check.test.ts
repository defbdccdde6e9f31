import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import nextConfig from "@/next.config.mjs";
import { buildState, sourceHash } from "@/scripts/build-check.mjs";

const repository = path.resolve(import.meta.dirname, "../../..");
const folders: string[] = [];

/** A small tree shaped like the project's: sources, the root files, and things that are not sources. */
function sourceTree(): string {
  const root = mkdtempSync(path.join(tmpdir(), "parallaxr-build-check-"));
  folders.push(root);
  const files: Record<string, string> = {
    "app/page.tsx": "export default function Page() { return null; }\n",
    "lib/core/template.ts": "export const a = 1;\n",
    "components/ui/icons.tsx": "export const b = 2;\n",
    "next.config.mjs": "export default {};\n",
    "package.json": '{ "name": "fixture", "type": "module" }\n',
    "package-lock.json": "{}\n",
    "README.md": "# Fixture\n",
    ".data/pglite/PG_VERSION": "17\n",
    "tests/unit/some.test.ts": "// a test\n",
  };
  for (const [file, text] of Object.entries(files)) write(root, file, text);
  return root;
}

function write(root: string, file: string, text: string) {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), text);
}

afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe("sourceHash", () => {
  it("is the same for the same sources, and changes with any source file, added or edited", () => {
    const root = sourceTree();
    const first = sourceHash({ root, env: {} });
    expect(first).toMatch(/^[0-9a-f]{32}$/);
    expect(sourceHash({ root, env: {} })).toBe(first);

    write(root, "lib/core/template.ts", "export const a = 2;\n");
    const edited = sourceHash({ root, env: {} });
    expect(edited).not.toBe(first);
    write(root, "components/ui/new-thing.tsx", "export const c = 3;\n");
    expect(sourceHash({ root, env: {} })).not.toBe(edited);
    write(root, "package-lock.json", '{ "lockfileVersion": 3 }\n');
    expect(sourceHash({ root, env: {} })).not.toBe(edited);
  });

  it("ignores what does not go into the build: docs, tests, the data folder", () => {
    const root = sourceTree();
    const before = sourceHash({ root, env: {} });
    write(root, "README.md", "# Changed\n");
    write(root, "tests/unit/some.test.ts", "// changed\n");
    write(root, ".data/pglite/PG_VERSION", "18\n");
    expect(sourceHash({ root, env: {} })).toBe(before);
  });

  it("changes with the settings next.config.mjs fixes at build time, and no others", () => {
    const root = sourceTree();
    const before = sourceHash({ root, env: {} });
    expect(sourceHash({ root, env: { PORT: "4000", HOST: "0.0.0.0" } })).toBe(before);
    expect(sourceHash({ root, env: { PARALLAXR_MAX_UPLOAD_MB: "256" } })).not.toBe(before);
  });

  it("is the build id next.config.mjs gives every build, so a build made by hand is recorded too", async () => {
    const generate = nextConfig.generateBuildId;
    expect(generate).toBeTypeOf("function");
    expect(await generate!()).toBe(sourceHash({ root: process.cwd() }));
    expect(buildState({ root: repository, env: {} }).state).toMatch(/^(missing|stale|current)$/);
  });
});

describe("npm start (scripts/serve.mjs start)", () => {
  /**
   * The project's serve and build-check scripts in a source tree whose `next` only notes its
   * arguments; its `build` records the id as next.config.mjs makes it (the source hash).
   */
  function treeWithRecordingNext(): { root: string; start: () => string[] } {
    const root = sourceTree();
    for (const script of ["serve.mjs", "build-check.mjs"])
      write(root, `scripts/${script}`, readFileSync(path.join(repository, "scripts", script), "utf8"));
    write(root, "node_modules/next/package.json", '{ "name": "next" }\n');
    write(
      root,
      "node_modules/next/dist/bin/next",
      `const fs = require("node:fs");
const { pathToFileURL } = require("node:url");
fs.appendFileSync("next-calls.log", process.argv.slice(2).join(" ") + "\\n");
fs.writeFileSync("next-pid.log", String(process.pid));
if (process.argv[2] === "build") {
  import(pathToFileURL("scripts/build-check.mjs").href).then(({ sourceHash }) => {
    fs.mkdirSync(".next", { recursive: true });
    fs.writeFileSync(".next/BUILD_ID", sourceHash({ root: process.cwd() }));
  });
}
`,
    );
    const log = path.join(root, "next-calls.log");
    const start = () => {
      rmSync(log, { force: true });
      const result = spawnSync(process.execPath, [path.join(root, "scripts", "serve.mjs"), "start"], {
        cwd: tmpdir(),
        env: { PATH: process.env.PATH ?? "", PORT: "3999", NODE_ENV: "production" },
        encoding: "utf8",
      });
      expect(result.status, result.stderr).toBe(0);
      return readFileSync(log, "utf8").trim().split("\n");
    };
    return { root, start };
  }

  it("builds when there is no build, then starts on loopback", () => {
    const { start } = treeWithRecordingNext();
    expect(start()).toEqual(["build", "start -H 127.0.0.1 -p 3999"]);
  });

  it("does not build again while the sources are unchanged, and does after a source changes", () => {
    const { root, start } = treeWithRecordingNext();
    start();
    expect(start()).toEqual(["start -H 127.0.0.1 -p 3999"]);
    write(root, "README.md", "# Only the docs changed\n");
    expect(start()).toEqual(["start -H 127.0.0.1 -p 3999"]);
    write(root, "app/page.tsx", "export default function Page() { return 'changed'; }\n");
    expect(start()).toEqual(["build", "start -H 127.0.0.1 -p 3999"]);
    expect(start()).toEqual(["start -H 127.0.0.1 -p 3999"]);
  });

  it("builds again over a build that recorded no source hash", () => {
    const { root, start } = treeWithRecordingNext();
    write(root, ".next/BUILD_ID", "Xf3k2Y_random_id");
    expect(start()).toEqual(["build", "start -H 127.0.0.1 -p 3999"]);
  });

  it("runs Next in its own process (no second Node process held for the server's life)", () => {
    const { root, start } = treeWithRecordingNext();
    write(
      root,
      "scripts/serve-pid.mjs",
      'import fs from "node:fs";\nfs.writeFileSync(new URL("../serve-pid.log", import.meta.url), String(process.pid));\n',
    );
    // the serve script's pid, noted by a module it imports first
    const serve = readFileSync(path.join(root, "scripts", "serve.mjs"), "utf8");
    const [shebang, ...rest] = serve.split("\n");
    write(root, "scripts/serve.mjs", [shebang, 'import "./serve-pid.mjs";', ...rest].join("\n"));
    start();
    expect(readFileSync(path.join(root, "next-pid.log"), "utf8")).toBe(readFileSync(path.join(root, "serve-pid.log"), "utf8"));
  });
});
