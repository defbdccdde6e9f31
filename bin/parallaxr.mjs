#!/usr/bin/env node
// The `parallaxr` command, from whichever directory it is called: bin/launch.mjs finds the
// Parallaxr folder from its own place, so the CLI and the app read the same .env and data folder.
import { launch } from "./launch.mjs";

await launch([]);
