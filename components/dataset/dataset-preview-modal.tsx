"use client";

import { useEffect, useState } from "react";
import { getDataset } from "@/lib/client/datasets-api";
import type { LoadedDataset } from "@/lib/client/draft-store";
import { ModalDialog } from "@/components/ui/modal-dialog";
import { previewCaption } from "./dataset-preview-caption";

/** The spec's preview size. */
export const PREVIEW_ROWS = 50;

type DatasetPreviewModalProps = { dataset: LoadedDataset; open: boolean; onClose(): void };

/** A read-only table of the dataset's first 50 rows. */
export function DatasetPreviewModal({ dataset, open, onClose }: DatasetPreviewModalProps) {
  const { rows, error } = usePreviewRows(dataset, open);
  return (
    <ModalDialog
      open={open}
      onClose={onClose}
      title={<span className="block truncate">{dataset.name}</span>}
      description={rows ? previewCaption(rows.length, dataset.rowCount) : "Loading rows…"}
      size="xl"
      testId="dataset-preview-dialog"
    >
      {error ? (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-red-800">
          {error}
        </p>
      ) : rows ? (
        <PreviewTable headers={dataset.headers} rows={rows} caption={previewCaption(rows.length, dataset.rowCount)} />
      ) : (
        <p className="py-6 text-center text-zinc-500">Loading rows…</p>
      )}
    </ModalDialog>
  );
}

/**
 * The rows to show: those in memory when there are enough, otherwise the first 50 from the
 * server (a dataset restored with a run may hold fewer rows in memory than it has).
 */
function usePreviewRows(dataset: LoadedDataset, open: boolean) {
  const inMemory = dataset.rows.length >= Math.min(PREVIEW_ROWS, dataset.rowCount) || dataset.id === null;
  const [fetched, setFetched] = useState<{ id: string; rows: Record<string, string>[] } | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!open || inMemory || dataset.id === null || fetched?.id === dataset.id) return;
    const id = dataset.id;
    let current = true;
    setError(null);
    getDataset(id, { limit: PREVIEW_ROWS })
      .then((answer) => current && setFetched({ id, rows: answer.rows }))
      .catch((reason: unknown) => current && setError(reason instanceof Error ? reason.message : String(reason)));
    return () => {
      current = false;
    };
  }, [open, inMemory, dataset.id, fetched?.id]);

  if (inMemory) return { rows: dataset.rows.slice(0, PREVIEW_ROWS), error: null };
  return { rows: fetched?.id === dataset.id ? fetched.rows : null, error };
}

function PreviewTable({ headers, rows, caption }: { headers: string[]; rows: Record<string, string>[]; caption: string }) {
  return (
    <div className="overflow-auto rounded-lg border border-zinc-200" style={{ maxHeight: "min(60vh, 640px)" }}>
      <table className="w-max min-w-full border-separate border-spacing-0 text-left text-xs">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            <th
              scope="col"
              className="sticky top-0 left-0 z-20 w-12 border-b border-zinc-200 bg-zinc-100 px-2 py-2 text-right font-semibold text-zinc-600"
            >
              Row
            </th>
            {headers.map((header) => (
              <th
                key={header}
                scope="col"
                title={header}
                className="sticky top-0 z-10 border-b border-l border-zinc-200 bg-zinc-50 px-3 py-2 font-semibold text-zinc-700"
              >
                <div className="max-w-[240px] truncate">{header}</div>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => (
            <tr key={index} className="even:bg-zinc-50/60">
              <th
                scope="row"
                className="sticky left-0 z-[5] border-b border-zinc-100 bg-zinc-100 px-2 py-1.5 text-right font-normal text-zinc-500 tabular-nums"
              >
                {index + 1}
              </th>
              {headers.map((header) => {
                // Own values only: a missing "constructor" column must not read Object.prototype's.
                const value = Object.hasOwn(row, header) ? String(row[header]) : "";
                return (
                  // Table cells ignore max-width in auto layout, so a block inside truncates.
                  <td key={header} title={value} className="border-b border-l border-zinc-100 px-3 py-1.5 text-zinc-800">
                    <div className="max-w-[240px] truncate">{value}</div>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
