import type { BatchSummary } from "@/lib/api/batches";
import { statusLabel } from "./batch-view";

const dateFormat = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });

/** The past batches (from this page and from `parallaxr batch-run` against this server), each reopenable at /batches?id=. */
export function PastBatches({ batches, onOpen }: { batches: BatchSummary[] | null; onOpen(id: string): void }) {
  return (
    <section aria-labelledby="past-batches-heading" className="flex flex-col gap-2">
      <h2 id="past-batches-heading" className="text-sm font-semibold text-zinc-900">
        Past batches
      </h2>
      {batches === null ? (
        <p className="text-sm text-zinc-600">Loading…</p>
      ) : batches.length === 0 ? (
        <p className="text-sm text-zinc-600">None yet. Batches run from this page show here.</p>
      ) : (
        <ul className="divide-y divide-zinc-100 overflow-hidden rounded-lg border border-zinc-200 bg-white">
          {batches.map((batch) => (
            <li key={batch.id}>
              <button
                type="button"
                onClick={() => onOpen(batch.id)}
                className="flex w-full flex-col gap-0.5 px-3 py-2 text-left text-sm hover:bg-zinc-50 focus-visible:bg-zinc-50"
              >
                <span className="flex w-full items-center gap-3">
                  <span className="min-w-0 flex-1 truncate font-medium text-zinc-900">{batch.runId}</span>
                  <span className="shrink-0 text-zinc-700">{statusLabel(batch.status)}</span>
                  <span className="w-28 shrink-0 text-right text-zinc-600">
                    {batch.createdAt ? dateFormat.format(new Date(batch.createdAt)) : ""}
                  </span>
                </span>
                <span className="text-xs tabular-nums text-zinc-700">
                  {batch.promptsFile} × {batch.matrixFile} · {batch.counts.total} jobs · {batch.counts.success} succeeded ·{" "}
                  {batch.counts.failed} failed · {batch.counts.skipped} skipped
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
