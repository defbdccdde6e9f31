import type { Database } from "@/lib/db/database";

/** What a cell or run notice carries (0004_realtime.sql), and which of the two it is (its channel). */
export interface RunNotice {
  runId: string;
  status?: string;
  kind: "cell" | "run";
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
  const dispatch = (kind: RunNotice["kind"]) => (payload: string) => {
    let notice: RunNotice;
    try {
      notice = { ...(JSON.parse(payload) as Omit<RunNotice, "kind">), kind };
    } catch {
      return;
    }
    for (const subscriber of subscribers.get(notice.runId) ?? []) subscriber(notice);
  };
  const stops = [await db.listen("parallaxr_cells", dispatch("cell")), await db.listen("parallaxr_runs", dispatch("run"))];
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
