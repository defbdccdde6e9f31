import type { ExperimentSummary } from "@/lib/api/experiments";

const dateFormat = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });

/** The past experiment runs (from the page and from `parallaxr run` alike), each reopenable. */
export function PastExperiments({ experiments, onOpen }: { experiments: ExperimentSummary[] | null; onOpen(id: string): void }) {
  return (
    <section aria-labelledby="past-heading" className="flex flex-col gap-2">
      <h2 id="past-heading" className="text-sm font-semibold text-zinc-900">
        Past experiments
      </h2>
      {experiments === null ? (
        <p className="text-sm text-zinc-600">Loading…</p>
      ) : experiments.length === 0 ? (
        <p className="text-sm text-zinc-600">None yet. Runs from this page and from the parallaxr run command show here.</p>
      ) : (
        <ul className="divide-y divide-zinc-100 overflow-hidden rounded-lg border border-zinc-200 bg-white">
          {experiments.map((experiment) => (
            <li key={experiment.id}>
              <button
                type="button"
                onClick={() => onOpen(experiment.id)}
                className="flex w-full items-center gap-3 px-3 py-2 text-left text-sm hover:bg-zinc-50 focus-visible:bg-zinc-50"
              >
                <span className="min-w-0 flex-1 truncate">
                  <span className="font-medium text-zinc-900">{experiment.experimentsFile}</span>
                  <span className="text-zinc-600"> · {experiment.promptFile}</span>
                </span>
                <span className="shrink-0 tabular-nums text-zinc-700">
                  {experiment.rowCount} rows · {experiment.counts.ok} ok · {experiment.counts.warning} warning · {experiment.counts.error}{" "}
                  error
                </span>
                <span className="w-28 shrink-0 text-right text-zinc-600">{dateFormat.format(new Date(experiment.createdAt))}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
