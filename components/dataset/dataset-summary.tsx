"use client";

import { useState } from "react";
import { useDraftStore, type LoadedDataset } from "@/lib/client/draft-store";
import { formatRowCount } from "./dataset-preview-caption";
import { DatasetPreviewModal } from "./dataset-preview-modal";

type DatasetSummaryProps = { dataset: LoadedDataset | null; loading?: boolean };

/**
 * The active dataset's name, row count and columns with Preview and Detach, or how to load one.
 * Detach leaves the workbench without a dataset (it stays stored, in the Upload pill's list): a
 * prompt without variables then runs once.
 */
export function DatasetSummary({ dataset, loading = false }: DatasetSummaryProps) {
  const [previewOpen, setPreviewOpen] = useState(false);
  const setDataset = useDraftStore((state) => state.setDataset);

  if (!dataset && loading) {
    return (
      <p className="text-sm text-zinc-500" data-testid="dataset-loading">
        Loading…
      </p>
    );
  }
  if (!dataset) {
    return (
      <p className="text-sm text-zinc-500" data-testid="dataset-empty">
        No dataset. Upload a CSV or JSON file from the toolbar (a prompt without {"{{variables}}"} runs once without one).
      </p>
    );
  }
  return (
    <div className="flex min-w-0 items-start gap-3 text-sm" data-testid="dataset-summary">
      <div className="min-w-0 flex-1">
        <p className="flex min-w-0 items-baseline gap-2">
          <span className="truncate font-medium text-zinc-900" title={dataset.name}>
            {dataset.name}
          </span>
          <span className="shrink-0 text-zinc-500">{formatRowCount(dataset.rowCount)}</span>
        </p>
        {dataset.headers.length > 0 && (
          <p className="mt-0.5 truncate text-xs text-zinc-500" title={dataset.headers.join(", ")}>
            Columns: {dataset.headers.join(", ")}
          </p>
        )}
      </div>
      <button
        type="button"
        data-testid="dataset-preview-button"
        aria-haspopup="dialog"
        aria-label={`Preview ${dataset.name}`}
        onClick={() => setPreviewOpen(true)}
        className="h-7 shrink-0 rounded-lg border border-accent-line bg-white px-2.5 text-xs font-medium text-accent-strong hover:border-accent hover:bg-accent-soft"
      >
        Preview
      </button>
      <button
        type="button"
        data-testid="dataset-detach-button"
        aria-label={`Detach ${dataset.name}`}
        title="Run without a dataset: a prompt without {{variables}} runs once"
        onClick={() => setDataset(null)}
        className="h-7 shrink-0 rounded-lg border border-zinc-300 bg-white px-2.5 text-xs font-medium text-zinc-700 hover:border-accent hover:bg-accent-soft"
      >
        Detach
      </button>
      <DatasetPreviewModal dataset={dataset} open={previewOpen} onClose={() => setPreviewOpen(false)} />
    </div>
  );
}
