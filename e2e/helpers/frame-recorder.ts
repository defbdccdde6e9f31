// Measures how smoothly a page draws: the gaps between requestAnimationFrame callbacks and the
// long tasks (over 50 ms) of its main thread, and the same read from a Chromium trace. Used by
// e2e/large-dataset.spec.ts and bench/grid-frames.ts.
import type { Page } from "@playwright/test";

/** Frame and long-task figures of one measured stretch, in milliseconds. */
export type FrameStats = {
  frames: number;
  p50: number;
  p95: number;
  max: number;
  longTasks: number;
  longTaskTotal: number;
  longestTask: number;
  /**
   * From a trace only: the CPU time of the main thread's longest task. A task's duration (above)
   * also counts the time its thread waited for a core; this is the page's own work.
   */
  longestTaskCpu?: number;
};

/** Starts recording in the page; stopFrameRecorder answers what happened since. */
export async function startFrameRecorder(page: Page): Promise<void> {
  // A string, not a function: tsx (esbuild with keepNames) wraps inner functions in a __name()
  // helper that does not exist in the page.
  await page.evaluate(`(() => {
    const state = { gaps: [], tasks: [], running: true, last: 0, observer: null };
    window.__frames = state;
    const tick = (now) => {
      if (!state.running) return;
      if (state.last) state.gaps.push(now - state.last);
      state.last = now;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    if (PerformanceObserver.supportedEntryTypes.includes("longtask")) {
      state.observer = new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) state.tasks.push(entry.duration);
      });
      state.observer.observe({ type: "longtask" });
    }
  })()`);
}

export async function stopFrameRecorder(page: Page): Promise<FrameStats> {
  const { gaps, tasks } = await page.evaluate<{ gaps: number[]; tasks: number[] }>(`(async () => {
    const state = window.__frames;
    // Long-task entries are delivered after the task; one more frame lets the last ones arrive.
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    for (const entry of state.observer ? state.observer.takeRecords() : []) state.tasks.push(entry.duration);
    state.running = false;
    if (state.observer) state.observer.disconnect();
    return { gaps: state.gaps, tasks: state.tasks };
  })()`);
  return summarize(gaps, tasks);
}

/** Percentiles of frame gaps and totals of long tasks. */
export function summarize(gaps: number[], tasks: number[], taskCpuTimes?: number[]): FrameStats {
  const sorted = [...gaps].sort((left, right) => left - right);
  const at = (share: number) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))]);
  return {
    frames: sorted.length,
    p50: round(at(0.5)),
    p95: round(at(0.95)),
    max: round(sorted.at(-1) ?? 0),
    longTasks: tasks.length,
    longTaskTotal: round(tasks.reduce((sum, task) => sum + task, 0)),
    longestTask: round(Math.max(0, ...tasks)),
    ...(taskCpuTimes ? { longestTaskCpu: round(Math.max(0, ...taskCpuTimes)) } : {}),
  };
}

type TraceEvent = { name: string; ph: string; ts: number; dur?: number; tdur?: number; pid: number; tid: number; args?: { name?: string } };

/** Trace categories traceFrameStats reads: frames, and (in "toplevel") every task with its CPU time. */
export const FRAME_TRACE_CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline.frame", "toplevel"];

/** What the scheduler names one task of a thread; older Chromiums said RunTask. */
const TASK_EVENTS = new Set(["ThreadControllerImpl::RunTask", "RunTask"]);

/**
 * Frame intervals (between the compositor's DrawFrame events) and the renderer main thread's
 * tasks over 50 ms, with the longest task's CPU time, from a trace of FRAME_TRACE_CATEGORIES.
 * Throws when the trace holds no main-thread task, so a trace without them cannot pass as calm.
 */
export function traceFrameStats(traceJson: string): FrameStats {
  const parsed = JSON.parse(traceJson) as { traceEvents: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(parsed) ? parsed : parsed.traceEvents;
  const mainThreads = new Set(
    events
      .filter((event) => event.name === "thread_name" && event.args?.name === "CrRendererMain")
      .map((event) => `${event.pid}:${event.tid}`),
  );
  const draws = events
    .filter((event) => event.name === "DrawFrame" && event.ph !== "E")
    .map((event) => event.ts)
    .sort((left, right) => left - right);
  const gaps = draws.slice(1).map((ts, index) => (ts - draws[index]) / 1000);
  const mainTasks = events.filter(
    (event) => TASK_EVENTS.has(event.name) && event.ph === "X" && mainThreads.has(`${event.pid}:${event.tid}`),
  );
  if (mainTasks.length === 0)
    throw new Error("The trace has no task of the renderer's main thread: record it with FRAME_TRACE_CATEGORIES.");
  const tasks = mainTasks.filter((event) => (event.dur ?? 0) > 50_000).map((event) => event.dur! / 1000);
  return summarize(
    gaps,
    tasks,
    mainTasks.map((event) => (event.tdur ?? event.dur ?? 0) / 1000),
  );
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

/** "p50 16.7 / p95 33.3 / max 50.0 ms over 120 frames; 2 long tasks, 140.0 ms in all (longest 80.0 ms)". */
export function describeFrameStats(stats: FrameStats): string {
  return (
    `p50 ${stats.p50} / p95 ${stats.p95} / max ${stats.max} ms over ${stats.frames} frames; ` +
    `${stats.longTasks} long tasks, ${stats.longTaskTotal} ms in all (longest ${stats.longestTask} ms)` +
    (stats.longestTaskCpu === undefined ? "" : `; longest task's CPU time ${stats.longestTaskCpu} ms`)
  );
}
