import type { EvalDetail } from "@/lib/api/evals";
import { evalComparisonUrl, evalExportUrl, type EvalExportFormat } from "@/lib/client/evals-api";

const PER_RUN: Array<{ format: EvalExportFormat; label: string }> = [
  { format: "json", label: "JSON" },
  { format: "csv", label: "CSV" },
  { format: "markdown", label: "Markdown" },
  { format: "html", label: "HTML report" },
];

const linkClass = "rounded-md border border-zinc-300 bg-white px-2.5 py-1 text-xs font-medium text-zinc-800 hover:bg-zinc-50";

/**
 * Every export of an eval: JSON, CSV, Markdown and the HTML report of each EvalRun, JUnit XML of
 * them all, and comparison.md when there are two or more. Links to the export routes, which
 * answer files to save.
 */
export function EvalDownloads({ detail }: { detail: EvalDetail }) {
  const { eval: summary, runs } = detail;
  return (
    <section aria-labelledby="eval-downloads-heading" className="flex flex-col gap-2 rounded-lg border border-zinc-200 bg-white px-4 py-3">
      <h2 id="eval-downloads-heading" className="text-sm font-semibold text-zinc-900">
        Downloads
      </h2>
      <ul className="flex flex-col gap-1.5">
        {runs.map((run) => (
          <li key={run.run_id} className="flex flex-wrap items-center gap-2">
            <span className="min-w-48 text-sm text-zinc-800">
              {run.prompt_name} · <span className="font-mono text-xs">{run.model}</span>
            </span>
            {PER_RUN.map(({ format, label }) => (
              <a
                key={format}
                href={evalExportUrl(summary.id, format, run.run_id)}
                download
                aria-label={`${label} of ${run.prompt_name} on ${run.model}`}
                className={linkClass}
              >
                {label}
              </a>
            ))}
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <a href={evalExportUrl(summary.id, "junit")} download className={linkClass}>
          JUnit XML (all runs)
        </a>
        {runs.length > 1 && (
          <a href={evalComparisonUrl(summary.id)} download className={linkClass}>
            comparison.md
          </a>
        )}
      </div>
    </section>
  );
}
