// Loaded into the server under measurement with `node --import` (NODE_OPTIONS), by
// bench/product/server.ts only; nothing in the product loads it and no route exposes it.
// When PARALLAXR_BENCH_LOOP_STATS names a folder, it samples this process's event-loop delay
// (monitorEventLoopDelay, 10 ms resolution) and, on SIGUSR2, writes what it saw since the last
// SIGUSR2 to <folder>/loop-<pid>.json and starts over. At load it writes the file once (count 0),
// so the bench knows which processes carry the probe and may be sent SIGUSR2.
// With PARALLAXR_BENCH_STATEMENTS=1 it also times PGlite's synchronous work on this thread
// (every PGlite.prototype.execProtocolRawSync call, ESM and CommonJS builds both) and counts the
// statements parsed, by their first words, and adds that to the same file.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { TextDecoder } from "node:util";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";

const dir = process.env.PARALLAXR_BENCH_LOOP_STATS;
if (dir) {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const file = path.join(dir, `loop-${process.pid}.json`);
  const ms = (ns) => Math.round(ns / 1e4) / 100;
  let seq = 0;
  // statement kind -> { count, ms }; the time of a Bind/Execute/Sync goes to the statement parsed last
  let statements = new Map();
  let pgliteMs = 0;
  if (process.env.PARALLAXR_BENCH_STATEMENTS === "1") await patchPglite();

  async function patchPglite() {
    const require = createRequire(import.meta.url);
    const modules = [await import("@electric-sql/pglite"), require("@electric-sql/pglite")];
    let current = { count: 0, ms: 0 };
    const decoder = new TextDecoder();
    for (const { PGlite } of modules) {
      const original = PGlite.prototype.execProtocolRawSync;
      if (original.__benchPatched) continue;
      const patched = function (message) {
        // Parse ('P': length, statement name, query) or simple Query ('Q': length, query)
        if (message[0] === 0x50 || message[0] === 0x51) {
          let at = 5;
          if (message[0] === 0x50) while (message[at] !== 0) at++;
          if (message[0] === 0x50) at++;
          let end = at;
          while (end < message.length && message[end] !== 0) end++;
          const text = decoder.decode(message.subarray(at, Math.min(end, at + 400)));
          const kind = text.replace(/\s+/g, " ").trim().slice(0, 70);
          current = statements.get(kind) ?? { count: 0, ms: 0 };
          statements.set(kind, current);
          current.count++;
        }
        const started = performance.now();
        try {
          return original.call(this, message);
        } finally {
          const ms = performance.now() - started;
          pgliteMs += ms;
          current.ms += ms;
        }
      };
      patched.__benchPatched = true;
      PGlite.prototype.execProtocolRawSync = patched;
    }
  }
  const write = () => {
    const empty = histogram.count === 0;
    const snapshot = {
      pid: process.pid,
      seq: seq++,
      at: Date.now(),
      argv: process.argv.slice(1, 3),
      count: histogram.count,
      maxMs: empty ? 0 : ms(histogram.max),
      p99Ms: empty ? 0 : ms(histogram.percentile(99)),
      p50Ms: empty ? 0 : ms(histogram.percentile(50)),
      meanMs: empty ? 0 : ms(histogram.mean),
      pgliteMs: Math.round(pgliteMs),
      statements: [...statements].map(([kind, { count, ms: time }]) => ({ kind, count, ms: Math.round(time) })),
      // This thread's V8 heap and what it holds outside it (a PGlite on another thread is not in these)
      memoryMb: Object.fromEntries(Object.entries(process.memoryUsage()).map(([key, bytes]) => [key, Math.round(bytes / 2 ** 20)])),
    };
    statements = new Map();
    pgliteMs = 0;
    const tmp = `${file}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(snapshot));
    fs.renameSync(tmp, file);
    histogram.reset();
  };
  write();
  process.on("SIGUSR2", write);
}
