// Cell-to-paint latency: Chromium (Playwright) shows the run's page, /?run=<id>, while the run
// goes; for each result cell on screen (the grid draws only the rows in view), the time it showed
// a finished status in the DOM and a frame was painted, minus its finished_at in the database
// (same machine, same clock). The fake server holds
// every call at a gate until the page is following the run, so no cell finishes unseen.
import os from "node:os";
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
  const w = window as unknown as { __benchPaints: Map<string, number>; __benchStreams: number };
  w.__benchPaints = paints;
  w.__benchStreams = 0;
  let pending: string[] = [];
  let scheduled = false;
  const channel = new MessageChannel();
  // rAF runs just before the frame is painted; a message posted from it is handled after the paint.
  channel.port1.onmessage = () => {
    const at = performance.timeOrigin + performance.now();
    for (const key of pending) paints.set(key, at);
    pending = [];
    scheduled = false;
  };
  const note = (node: Node) => {
    if (!(node instanceof HTMLElement) || node.dataset.testid !== "result-cell") return;
    if (!finished.has(node.dataset.status ?? "")) return;
    const key = `${node.dataset.gridRow}/${node.dataset.gridColumn}`;
    if (paints.has(key)) return;
    paints.set(key, -1);
    pending.push(key);
  };
  new MutationObserver((records) => {
    for (const record of records) {
      if (record.type === "attributes") note(record.target);
      else
        for (const node of record.addedNodes) {
          note(node);
          if (node instanceof HTMLElement) node.querySelectorAll("[data-testid=result-cell]").forEach(note);
        }
    }
    if (pending.length > 0 && !scheduled) {
      scheduled = true;
      requestAnimationFrame(() => channel.port2.postMessage(0));
    }
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-status"] });
  const Original = window.EventSource;
  window.EventSource = class extends Original {
    constructor(url: string | URL, init?: EventSourceInit) {
      super(url, init);
      this.addEventListener("open", () => w.__benchStreams++);
    }
  };
};

export interface PaintRun {
  runId: string;
  /** "row/column" -> epoch ms of the paint after the cell showed finished. */
  paints: Map<string, number>;
  /** "row/column" -> epoch ms at which a Node client of the run's events stream got the cell finished (every cell). */
  streamed: Map<string, number>;
  problems: string[];
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
    const entries = await page.evaluate(() => [...(window as unknown as { __benchPaints: Map<string, number> }).__benchPaints.entries()]);
    return { runId: run.id, paints: new Map(entries), streamed, problems: await checkRun(server.url, run.id, rows) };
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
