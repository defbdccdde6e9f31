// Cell-to-paint latency: Chromium (Playwright) shows the run's page, /?run=<id>, while the run
// goes; for each result cell on screen (the grid draws only the rows in view), the time it showed
// a finished status in the DOM and a frame was painted, minus its finished_at in the database
// (same machine, same clock). The fake server holds
// every call at a gate until the page is following the run, so no cell finishes unseen.
import os from "node:os";
import fs from "node:fs";
import path from "node:path";
import { chromium, type Browser } from "@playwright/test";
import { pgliteFolder } from "@/lib/db/open-database";
import { openPglite } from "@/lib/db/open-pglite";
import { createRun, checkRun, followEvents, type BenchRow } from "./drive";
import type { FakeOpenAi } from "./fake-openai";
import { withClient, type ProductServer } from "./server";

/** Runs in the page before its scripts. */
const observerScript = () => {
  const finished = new Set(["ok", "warning", "error", "malformed", "skipped", "cancelled"]);
  const paints = new Map<string, number>();
  // The same cells, timed after the frame following the one that changed them (how this bench
  // timed paints until 2026-11-29): for comparison with earlier figures.
  const nextFrames = new Map<string, number>();
  // "row/column" -> when the page's events stream brought the cell finished, before any rendering.
  const arrivals = new Map<string, number>();
  const w = window as unknown as {
    __benchPaints: Map<string, number>;
    __benchNextFrames: Map<string, number>;
    __benchArrivals: Map<string, number>;
    __benchStreams: number;
  };
  w.__benchPaints = paints;
  w.__benchNextFrames = nextFrames;
  w.__benchArrivals = arrivals;
  w.__benchStreams = 0;
  const now = () => performance.timeOrigin + performance.now();
  // A message posted while a frame is being made (its animation callbacks, then style, layout
  // and paint, all in one turn of the event loop) is handled once that frame is painted.
  const afterPaint = (record: (at: number) => void) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      record(now());
      channel.port1.close();
    };
    channel.port2.postMessage(0);
  };
  // True from a frame's first animation callback until that frame is painted: a change made then
  // (the page applies cells in an animation callback) is in this frame's paint.
  let inFrame = false;
  const originalRaf = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (callback) =>
    originalRaf((time) => {
      if (!inFrame) {
        inFrame = true;
        afterPaint(() => (inFrame = false));
      }
      callback(time);
    });
  const note = (node: Node, changed: string[]) => {
    if (!(node instanceof HTMLElement) || node.dataset.testid !== "result-cell") return;
    if (!finished.has(node.dataset.status ?? "")) return;
    const key = `${node.dataset.gridRow}/${node.dataset.gridColumn}`;
    if (paints.has(key)) return;
    paints.set(key, -1);
    changed.push(key);
  };
  new MutationObserver((records) => {
    const changed: string[] = [];
    for (const record of records) {
      if (record.type === "attributes") note(record.target, changed);
      else
        for (const node of record.addedNodes) {
          note(node, changed);
          if (node instanceof HTMLElement) node.querySelectorAll("[data-testid=result-cell]").forEach((cell) => note(cell, changed));
        }
    }
    if (changed.length === 0) return;
    const painted = (at: number) => changed.forEach((key) => paints.set(key, at));
    const nextFrame = (at: number) => changed.forEach((key) => nextFrames.set(key, at));
    // Changed outside a frame: painted in the next one, which a message posted from its
    // animation callbacks follows.
    const changedInFrame = inFrame;
    if (changedInFrame) afterPaint(painted);
    originalRaf(() => afterPaint(changedInFrame ? nextFrame : (at) => (painted(at), nextFrame(at))));
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-status"] });
  const Original = window.EventSource;
  window.EventSource = class extends Original {
    constructor(url: string | URL, init?: EventSourceInit) {
      super(url, init);
      this.addEventListener("open", () => w.__benchStreams++);
      this.addEventListener("cell-update", (event) => {
        const at = performance.timeOrigin + performance.now();
        const cell = JSON.parse((event as MessageEvent<string>).data) as { row: number; column: number; status: string };
        const key = `${cell.row}/${cell.column}`;
        if (finished.has(cell.status) && !arrivals.has(key)) arrivals.set(key, at);
      });
    }
  };
};

export interface PaintRun {
  runId: string;
  /** "row/column" -> epoch ms once the frame that showed the cell finished was painted. */
  paints: Map<string, number>;
  /** "row/column" -> epoch ms after the frame following the paint (this bench's measure until 2026-11-29). */
  nextFrames: Map<string, number>;
  /** "row/column" -> epoch ms at which the page's own events stream brought the cell finished. */
  arrivals: Map<string, number>;
  /** "row/column" -> epoch ms at which a Node client of the run's events stream got the cell finished (every cell). */
  streamed: Map<string, number>;
  /** From the gate's opening to the last paint: wall time, CPU of every browser process (null off Linux), the page's main thread busy. */
  browserUse: { wallMs: number; cpuMs: number | null; mainThreadMs: number };
  problems: string[];
}

/** CPU time (user + system, ms) of this process's descendants whose command names Chromium; null where /proc is not there. */
function browserCpuMs(): number | null {
  if (!fs.existsSync("/proc/self/stat")) return null;
  const stats = new Map<number, { parent: number; ticks: number; chromium: boolean }>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Fields after the command's closing parenthesis: state, ppid, ... utime (12th), stime (13th).
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const command = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      stats.set(Number(entry), {
        parent: Number(fields[1]),
        ticks: Number(fields[11]) + Number(fields[12]),
        chromium: /chrom/i.test(command),
      });
    } catch {
      // the process ended while being read
    }
  }
  const descends = (pid: number): boolean => {
    for (let at = stats.get(pid)?.parent; at !== undefined && at > 1; at = stats.get(at)?.parent) if (at === process.pid) return true;
    return false;
  };
  let ticks = 0;
  for (const [pid, stat] of stats) if (stat.chromium && descends(pid)) ticks += stat.ticks;
  return (ticks * 1000) / 100; // USER_HZ is 100 on Linux
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
}

export async function measurePaintRun(input: {
  browser: Browser;
  server: ProductServer;
  fake: FakeOpenAi;
  rows: BenchRow[];
  latencyMs: number;
  concurrency: number;
  answerChars: number;
}): Promise<PaintRun> {
  const { browser, server, fake, rows } = input;
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  try {
    // tsx compiles this file keeping function names, with calls to a __name helper the page lacks.
    await page.addInitScript({ content: "globalThis.__name = (target) => target;" });
    await page.addInitScript(observerScript);
    fake.reset({ latencyMs: input.latencyMs, gated: true, answerChars: input.answerChars });
    const run = await createRun(server.url, rows, input.concurrency);
    await page.goto(`${server.url}/?run=${run.id}&view=history`);
    // The grid draws the rows in view (it is virtualised), so the cells measured are those on
    // screen: a cell scrolled out of view is never painted. Wait until they show running.
    await page
      .waitForFunction(() => document.querySelector("[data-testid=result-cell][data-status=running]") !== null, null, { timeout: 20_000 })
      .catch(async (error: Error) => {
        const cells = await page.evaluate(() => document.querySelectorAll("[data-testid=result-cell]").length);
        const shot = path.join(os.tmpdir(), `parallaxr-bench-paint-timeout-${process.pid}.png`);
        await page.screenshot({ path: shot, fullPage: false });
        throw new Error(
          `the run's page did not show the run running within 20 s (result cells drawn: ${cells}; screenshot ${shot}): ${error.message}`,
        );
      });
    // Scroll the grid to the middle rows: they finish in the middle of the run, when it is in full
    // swing, not in its first wave.
    await page.evaluate(() => {
      let scroller = document.querySelector("[data-testid=result-cell]")?.parentElement ?? null;
      while (scroller && !(scroller.scrollHeight > scroller.clientHeight + 1 && getComputedStyle(scroller).overflowY !== "visible"))
        scroller = scroller.parentElement;
      if (scroller) scroller.scrollTop = (scroller.scrollHeight - scroller.clientHeight) / 2;
    });
    await page.waitForFunction(
      (middle) =>
        [...document.querySelectorAll<HTMLElement>("[data-testid=result-cell]")].some((cell) => Number(cell.dataset.gridRow) >= middle),
      Math.floor(rows.length / 3),
      { timeout: 10_000 },
    );
    // Cells drawn before the scroll were noted as running only; what is drawn now is measured.
    const onScreen = await page.evaluate(() => document.querySelectorAll("[data-testid=result-cell]").length);
    // What the browser spent while the run went: all its processes' CPU, and its page's main thread.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Performance.enable");
    const mainThreadSeconds = async () =>
      (await cdp.send("Performance.getMetrics")).metrics.find((metric) => metric.name === "TaskDuration")?.value ?? 0;
    const mainThreadBefore = await mainThreadSeconds();
    const cpuBefore = browserCpuMs();
    const openedAt = Date.now();
    fake.openGate();
    // The run ends on the API's events stream; the page has then had that long to paint.
    // A client of the events stream in this process too: when each finished cell reached it.
    const streamed = new Map<string, number>();
    await followEvents(server.url, run, 120_000, (cell) => {
      const key = `${cell.row}/${cell.column}`;
      if (!streamed.has(key) && !["queued", "running"].includes(cell.status)) streamed.set(key, Date.now());
    });
    await page
      .waitForFunction(
        (count) =>
          [...(window as unknown as { __benchPaints: Map<string, number> }).__benchPaints.values()].filter((at) => at > 0).length >= count,
        onScreen,
        { timeout: 10_000, polling: 100 },
      )
      .catch(async (error: Error) => {
        const statuses = await page.evaluate(
          () =>
            [...document.querySelectorAll("[data-testid=result-cell]")]
              .map((cell) => (cell as HTMLElement).dataset.status)
              .slice(0, 3)
              .join(",") +
            " paints " +
            JSON.stringify([...(window as unknown as { __benchPaints: Map<string, number> }).__benchPaints].slice(0, 5)),
        );
        const shot = path.join(os.tmpdir(), `parallaxr-bench-paint-end-${process.pid}.png`);
        await page.screenshot({ path: shot, fullPage: false });
        throw new Error(
          `the page did not paint its ${onScreen} cells finished after the run ended (statuses: ${statuses}; screenshot ${shot}): ${error.message}`,
        );
      });
    const browserUse = {
      wallMs: Date.now() - openedAt,
      cpuMs: cpuBefore === null ? null : browserCpuMs()! - cpuBefore,
      mainThreadMs: ((await mainThreadSeconds()) - mainThreadBefore) * 1000,
    };
    const [entries, nextFrames, arrivals] = await page.evaluate(() => {
      const w = window as unknown as {
        __benchPaints: Map<string, number>;
        __benchNextFrames: Map<string, number>;
        __benchArrivals: Map<string, number>;
      };
      return [[...w.__benchPaints.entries()], [...w.__benchNextFrames.entries()], [...w.__benchArrivals.entries()]];
    });
    return {
      runId: run.id,
      paints: new Map(entries),
      nextFrames: new Map(nextFrames),
      arrivals: new Map(arrivals),
      streamed,
      browserUse,
      problems: await checkRun(server.url, run.id, rows),
    };
  } finally {
    await page.close();
  }
}

/** finished_at (epoch ms, microseconds kept) of every cell of the runs: read after the server stopped (PGlite is one process's). */
export async function readFinishTimes(server: ProductServer, runIds: string[]): Promise<Map<string, Map<string, number>>> {
  const sql = `select run_id::text as run_id, row_index, column_index, (extract(epoch from finished_at) * 1000)::float8 as ms
    from run_cells where run_id = any($1::uuid[])`;
  type Row = { run_id: string; row_index: number; column_index: number; ms: number | null };
  let rows: Row[];
  if (server.backend === "pglite") {
    const db = await openPglite({ dataDir: pgliteFolder(server.dataDir) });
    try {
      rows = (await db.query<Row>(sql, [runIds])).rows;
    } finally {
      await db.close();
    }
  } else {
    rows = await withClient(server.databaseUrl!, async (client) => (await client.query<Row>(sql, [runIds])).rows);
  }
  const byRun = new Map<string, Map<string, number>>();
  for (const row of rows) {
    if (row.ms === null) continue;
    let cells = byRun.get(row.run_id);
    if (!cells) byRun.set(row.run_id, (cells = new Map()));
    cells.set(`${row.row_index}/${row.column_index}`, Number(row.ms));
  }
  return byRun;
}
