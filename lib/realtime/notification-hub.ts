import type { Database } from "@/lib/db/database";

/** What a cell or run notice carries (0004_realtime.sql). */
export interface RunNotice {
  runId: string;
  status?: string;
}

/** One LISTEN per channel per process, fanned out to the subscribers of each run. */
export interface NotificationHub {
  /** Calls onNotice for every cell or run notice of runId until the returned function is called. */
  subscribe(runId: string, onNotice: (notice: RunNotice) => void): () => void;
  close(): Promise<void>;
}

/** Starts listening on the cell and run channels of db. */
export async function createNotificationHub(db: Database): Promise<NotificationHub> {
  const subscribers = new Map<string, Set<(notice: RunNotice) => void>>();
  const dispatch = (payload: string) => {
    let notice: RunNotice;
    try {
      notice = JSON.parse(payload) as RunNotice;
    } catch {
      return;
    }
    for (const subscriber of subscribers.get(notice.runId) ?? []) subscriber(notice);
  };
  const stops = [await db.listen("parallaxr_cells", dispatch), await db.listen("parallaxr_runs", dispatch)];
  return {
    subscribe(runId, onNotice) {
      let set = subscribers.get(runId);
      if (!set) subscribers.set(runId, (set = new Set()));
      set.add(onNotice);
      return () => {
        set.delete(onNotice);
        if (set.size === 0) subscribers.delete(runId);
      };
    },
    async close() {
      await Promise.all(stops.map((stop) => stop()));
    },
  };
}
