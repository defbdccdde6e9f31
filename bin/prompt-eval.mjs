#!/usr/bin/env node
// The `prompt-eval` command of specs/eval-config.md: `prompt-eval <args>` is `parallaxr eval <args>`
// (`prompt-eval run configs/eval_summarizer.yaml -f json` runs as the spec writes it).
import { launch } from "./launch.mjs";

await launch(["eval"]);
