import type { EvalList } from "@/lib/api/evals";

const dateFormat = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });

/** The past eval runs (from this page and from `parallaxr eval` against this server), each reopenable. */
export function PastEvals({
  evals,
  onOpen,
  onMore,
}: {
  evals: EvalList["evals"] | null;
  onOpen(id: string): void;
  /** Loads the next page; absent on the last. */
  onMore?: () => void;
}) {
  return (
    <section aria-labelledby="past-evals-heading" className="flex flex-col gap-2">
      <h2 id="past-evals-heading" className="text-sm font-semibold text-zinc-900">
        Past evals
      </h2>
      {evals === null ? (
        <p className="text-sm text-zinc-600">Loading…</p>
      ) : evals.length === 0 ? (
        <p className="text-sm text-zinc-600">None yet. Evals run from this page show here.</p>
      ) : (
        <ul className="divide-y divide-zinc-100 overflow-hidden rounded-lg border border-zinc-200 bg-white">
          {evals.map(({ eval: summary, runs }) => (
            <li key={summary.id}>
              <button
                type="button"
                onClick={() => onOpen(summary.id)}
                className="flex w-full flex-col gap-0.5 px-3 py-2 text-left text-sm hover:bg-zinc-50 focus-visible:bg-zinc-50"
              >
                <span className="flex w-full items-center gap-3">
                  <span className="min-w-0 flex-1 truncate font-medium text-zinc-900">{summary.configName}</span>
                  <span className="shrink-0 text-zinc-700">{summary.status}</span>
                  <span className="w-28 shrink-0 text-right text-zinc-600">{dateFormat.format(new Date(summary.createdAt))}</span>
                </span>
                <span className="flex flex-wrap gap-x-4 text-xs tabular-nums text-zinc-700">
                  {runs.map((run) => (
                    <span key={run.run_id}>
                      {run.prompt_name} · <span className="font-mono">{run.model}</span>:{" "}
                      {run.results === 0 ? "no results" : `${Math.round(run.pass_rate * 100)}% passed`}
                    </span>
                  ))}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {onMore && (
        <button type="button" onClick={onMore} className="self-start text-xs font-medium text-accent-strong hover:underline">
          Show older evals
        </button>
      )}
    </section>
  );
}
