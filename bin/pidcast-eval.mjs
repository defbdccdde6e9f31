#!/usr/bin/env node
// The `pidcast-eval` command of specs/matrix-comparisons.md: `pidcast-eval <args>` is
// `parallaxr matrix <args>` (`pidcast-eval --run-matrix --prompts v1,v2 ...` runs as the spec writes it).
import { launch } from "./launch.mjs";

await launch(["matrix"]);
