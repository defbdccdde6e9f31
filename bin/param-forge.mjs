#!/usr/bin/env node
// The `param-forge` command of specs/image-batch-runs.md: `param-forge batch-run <args>` is
// `parallaxr batch-run <args>` (`param-forge batch-run --prompts prompts.txt --matrix matrix.yaml
// --out runs/food_glam_v1` runs as the spec writes it). The spec names the command after the
// program, so a leading `batch-run` is taken as that name; `param-forge <args>` runs the same.
import { launch } from "./launch.mjs";

if (process.argv[2] === "batch-run") process.argv.splice(2, 1);
await launch(["batch-run"]);
