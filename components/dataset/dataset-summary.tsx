import type { LoadedDataset } from "@/lib/client/draft-store";

type DatasetSummaryProps = { dataset: LoadedDataset | null };

/** The loaded dataset's name, row count and columns, or a hint on how to load one. */
export function DatasetSummary({ dataset }: DatasetSummaryProps) {
  if (!dataset) {
    return (
      <p className="text-sm text-zinc-500">
        No dataset. Use <span className="font-medium text-zinc-700">Upload dataset</span> above the results to load a
        CSV or JSON file.
      </p>
    );
  }
  const rowLabel = dataset.rows.length === 1 ? "1 row" : `${dataset.rows.length.toLocaleString("en")} rows`;
  return (
    <div className="min-w-0 text-sm" data-testid="dataset-summary">
      <p className="flex min-w-0 items-baseline gap-2">
        <span className="truncate font-medium text-zinc-900" title={dataset.name}>
          {dataset.name}
        </span>
        <span className="shrink-0 text-zinc-500">{rowLabel}</span>
      </p>
      {dataset.headers.length > 0 && (
        <p className="mt-0.5 truncate text-xs text-zinc-500" title={dataset.headers.join(", ")}>
          Columns: {dataset.headers.join(", ")}
        </p>
      )}
    </div>
  );
}
