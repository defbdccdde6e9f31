import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { pgliteWasmFlags } from "@/lib/db/open-pglite";

const baselineOnly = ["--liftoff-only", "--no-wasm-tier-up", "--no-wasm-dynamic-tiering"];

/** Whether V8 (this Node's) optimizes a hot WebAssembly function after these flags are set at run time. */
function optimizesAfter(flags: string[]): boolean {
  const fixture = path.join(import.meta.dirname, "..", "..", "fixtures", "wasm", "tier-up.mjs");
  const out = execFileSync(process.execPath, [fixture, JSON.stringify(flags)], { encoding: "utf8", timeout: 20_000 });
  return (JSON.parse(out.trim().split("\n").at(-1)!) as { turbofan: boolean }).turbofan;
}

describe("pgliteWasmFlags", () => {
  it("compiles PGlite's WebAssembly with the baseline compiler only by default", () => {
    expect(pgliteWasmFlags({})).toEqual(baselineOnly);
    // the CLI's budget alone does not turn optimizing on
    expect(pgliteWasmFlags({ PARALLAXR_PGLITE_TIERING_BUDGET: "1000000000" })).toEqual(baselineOnly);
    expect(pgliteWasmFlags({ PARALLAXR_PGLITE_OPTIMIZE: "0" })).toEqual(baselineOnly);
    expect(pgliteWasmFlags({ PARALLAXR_PGLITE_OPTIMIZE: "yes" })).toEqual(baselineOnly);
  });

  it("keeps a hot function unoptimized when set after V8 started, as PGlite's thread sets them", () => {
    // V8's own flags do optimize it on this Node: else the check below would prove nothing
    expect(optimizesAfter([])).toBe(true);
    // --liftoff-only alone did not stop it on Node 24, whose V8 works out implied flags only as it starts
    expect(optimizesAfter(pgliteWasmFlags({}))).toBe(false);
  }, 30_000);

  it("lets V8 optimize with PARALLAXR_PGLITE_OPTIMIZE=1, after the tiering budget when one is set", () => {
    expect(pgliteWasmFlags({ PARALLAXR_PGLITE_OPTIMIZE: "1" })).toEqual([]);
    expect(pgliteWasmFlags({ PARALLAXR_PGLITE_OPTIMIZE: " 1 ", PARALLAXR_PGLITE_TIERING_BUDGET: "1000000000" })).toEqual([
      "--wasm-tiering-budget=1000000000",
    ]);
    // a budget that is not a whole number of up to 10 digits keeps V8's own
    for (const budget of ["0", "-5", "1e9", "12345678901", "lots"])
      expect(pgliteWasmFlags({ PARALLAXR_PGLITE_OPTIMIZE: "1", PARALLAXR_PGLITE_TIERING_BUDGET: budget })).toEqual([]);
  });
});
