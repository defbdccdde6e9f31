/**
 * The batch's progress on a terminal with keys: the live status table and summary panel
 * (live-status.ts) fed from each read of the batch, with pause, resume and stop (which asks
 * first) acting on the batch. Messages that arrive while the view is drawn are held and printed
 * under it when it closes, so they never tear the redraw.
 */
import type { BatchAction } from "@/lib/api/batches";
import type { BatchReporter } from "./follow-batch";
import { createLiveStatus } from "./live-status";
import { liveSnapshot } from "./live-snapshot";

export function terminalBatchReporter(
  io: { input: NodeJS.ReadStream; output: NodeJS.WriteStream },
  { change, stop }: { change: (action: Exclude<BatchAction, "cancel">) => Promise<unknown>; stop: () => void },
): BatchReporter {
  const live = createLiveStatus(io, {
    onPause: async () => {
      await change("pause");
    },
    onResume: async () => {
      await change("resume");
    },
    // The command cancels the batch and ends as Ctrl-C ends it (exit 130, outputs kept).
    onStop: stop,
  });
  const held: string[] = [];
  let closed = false;
  return {
    wantsAllJobs: true,
    info: (message) => held.push(`[INFO] ${message}`),
    warning: (message) => held.push(`[WARNING] ${message}`),
    job: () => {},
    progress: () => {},
    snapshot: (batch, jobs) => live.update(liveSnapshot(batch, jobs)),
    done: () => {
      if (closed) return;
      closed = true;
      live.close();
      for (const line of held) io.output.write(`${line}\n`);
    },
  };
}
