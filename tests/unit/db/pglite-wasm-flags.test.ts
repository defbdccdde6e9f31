import { describe, expect, it } from "vitest";
import { pgliteWasmFlags } from "@/lib/db/open-pglite";

describe("pgliteWasmFlags", () => {
  it("compiles PGlite's WebAssembly with the baseline compiler only by default", () => {
    expect(pgliteWasmFlags({})).toEqual(["--liftoff-only"]);
    // the CLI's budget alone does not turn optimizing on
    expect(pgliteWasmFlags({ PARALLAXR_PGLITE_TIERING_BUDGET: "1000000000" })).toEqual(["--liftoff-only"]);
    expect(pgliteWasmFlags({ PARALLAXR_PGLITE_OPTIMIZE: "0" })).toEqual(["--liftoff-only"]);
    expect(pgliteWasmFlags({ PARALLAXR_PGLITE_OPTIMIZE: "yes" })).toEqual(["--liftoff-only"]);
  });

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
