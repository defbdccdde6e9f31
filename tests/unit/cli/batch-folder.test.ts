import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { strToU8 } from "fflate";
import { writeRunFiles } from "@/cli/matrix/batch-folder";

const dataDir = mkdtempSync(path.join(tmpdir(), "parallaxr-batch-folder-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("writeRunFiles", () => {
  it("writes each run file whole, and removes the temporary file a killed process left, not a live one's", () => {
    const runs = path.join(dataDir, "runs");
    mkdirSync(runs, { recursive: true });
    // pid 2147483646 is no process; this test's parent is alive
    writeFileSync(path.join(runs, ".r1.json.2147483646.tmp"), '{"run_id": "r1", "tru');
    writeFileSync(path.join(runs, `.r9.json.${process.ppid}.tmp`), "a live writer's half file");
    const written = new Set<string>();
    const paths = writeRunFiles(dataDir, { "runs/r1.json": strToU8('{"run_id": "r1"}\n'), "summary.json": strToU8("{}") }, written);
    expect(paths).toEqual([path.join(runs, "r1.json")]);
    expect(readFileSync(path.join(runs, "r1.json"), "utf8")).toBe('{"run_id": "r1"}\n');
    expect(readdirSync(runs).sort()).toEqual([`.r9.json.${process.ppid}.tmp`, "r1.json"]);
    expect([...written]).toEqual(["runs/r1.json"]);
  });
});
