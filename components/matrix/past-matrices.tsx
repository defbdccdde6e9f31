import type { MatrixSummary } from "@/lib/api/matrix";

const dateFormat = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });

/** The caller's past matrices (from this page, the API or `parallaxr matrix` against this server), newest first, each reopenable. */
export function PastMatrices({ matrices, onOpen }: { matrices: MatrixSummary[] | null; onOpen(id: string): void }) {
  return (
    <section aria-labelledby="past-matrices-heading" className="flex flex-col gap-2">
      <h2 id="past-matrices-heading" className="text-sm font-semibold text-zinc-900">
        Past matrices
      </h2>
      {matrices === null ? (
        <p className="text-sm text-zinc-600">Loading…</p>
      ) : matrices.length === 0 ? (
        <p className="text-sm text-zinc-600">None yet. Matrices run from here or the API show here.</p>
      ) : (
        <ul className="divide-y divide-zinc-100 overflow-hidden rounded-lg border border-zinc-200 bg-white">
          {matrices.map((matrix) => {
            const done = matrix.counts.ok + matrix.counts.warning + matrix.counts.error;
            return (
              <li key={matrix.id}>
                <button
                  type="button"
                  onClick={() => onOpen(matrix.id)}
                  className="flex w-full flex-col gap-0.5 px-3 py-2 text-left text-sm hover:bg-zinc-50 focus-visible:bg-zinc-50"
                >
                  <span className="flex w-full items-center gap-3">
                    <span className="min-w-0 flex-1 truncate font-mono text-[13px] font-medium text-zinc-900">{matrix.batchId}</span>
                    <span className="shrink-0 text-zinc-700">{matrix.status}</span>
                    <span className="w-28 shrink-0 text-right text-zinc-600">{dateFormat.format(new Date(matrix.createdAt))}</span>
                  </span>
                  <span className="truncate text-xs tabular-nums text-zinc-700">
                    {matrix.plan.prompts.join(", ")} × {matrix.plan.models.join(", ")} × {matrix.plan.inputs.length}{" "}
                    {matrix.plan.inputs.length === 1 ? "input" : "inputs"}: {done} of {matrix.plan.evals} done
                    {matrix.counts.error > 0 ? `, ${matrix.counts.error} failed` : ""}
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
