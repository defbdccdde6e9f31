"use client";

import { useEffect, useState } from "react";
import { deleteDataset, listDatasets, renameDataset } from "@/lib/client/datasets-api";
import { useDraftStore } from "@/lib/client/draft-store";
import { showToast } from "@/lib/client/toast-store";
import type { DatasetItem } from "@/lib/client/workbench-types";
import { ModalDialog } from "@/components/ui/modal-dialog";
import { formatRowCount } from "./dataset-preview-caption";

const messageOf = (reason: unknown) => (reason instanceof Error ? reason.message : String(reason));

const SMALL_BUTTON =
  "h-7 shrink-0 rounded-md border border-zinc-300 bg-white px-2.5 text-xs font-medium text-zinc-800 hover:border-accent hover:bg-accent-soft disabled:opacity-60";

type ManageDatasetsDialogProps = { open: boolean; onClose(): void };

/**
 * The stored datasets with Rename and Delete each. Deleting asks first; a dataset a run used
 * leaves the list but stays for that run's history, and the toast says so.
 */
export function ManageDatasetsDialog({ open, onClose }: ManageDatasetsDialogProps) {
  const [datasets, setDatasets] = useState<DatasetItem[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!open) return;
    let current = true;
    setError(null);
    listDatasets().then(
      (loaded) => current && setDatasets(loaded),
      (reason: unknown) => current && setError(messageOf(reason)),
    );
    return () => {
      current = false;
    };
  }, [open]);

  return (
    <ModalDialog
      open={open}
      onClose={onClose}
      title="Stored datasets"
      description="Rename or delete the datasets you uploaded. A dataset a run used stays with that run's history."
      size="md"
      testId="manage-datasets-dialog"
    >
      {error ? (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-red-800">
          {error}
        </p>
      ) : datasets === null ? (
        <p className="py-4 text-center text-zinc-500">Loading…</p>
      ) : datasets.length === 0 ? (
        <p className="py-4 text-center text-zinc-600">No datasets stored. Upload a CSV or JSON file from the toolbar.</p>
      ) : (
        <ul aria-label="Stored datasets" className="flex max-h-[50vh] flex-col divide-y divide-zinc-100 overflow-y-auto">
          {datasets.map((dataset) => (
            <DatasetRow
              key={dataset.id}
              dataset={dataset}
              onRenamed={(renamed) => setDatasets((list) => list?.map((item) => (item.id === renamed.id ? renamed : item)) ?? null)}
              onDeleted={() => setDatasets((list) => list?.filter((item) => item.id !== dataset.id) ?? null)}
            />
          ))}
        </ul>
      )}
    </ModalDialog>
  );
}

function DatasetRow({ dataset, onRenamed, onDeleted }: { dataset: DatasetItem; onRenamed(dataset: DatasetItem): void; onDeleted(): void }) {
  const [mode, setMode] = useState<"view" | "rename" | "delete">("view");
  const [name, setName] = useState(dataset.name);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function saveName() {
    if (name.trim() === dataset.name) return setMode("view");
    setBusy(true);
    setError(null);
    try {
      const renamed = await renameDataset(dataset.id, { name });
      const active = useDraftStore.getState().dataset;
      if (active?.id === renamed.id) useDraftStore.getState().setDataset({ ...active, name: renamed.name });
      onRenamed(renamed);
      setMode("view");
    } catch (reason) {
      setError(messageOf(reason));
    } finally {
      setBusy(false);
    }
  }

  async function remove() {
    setBusy(true);
    setError(null);
    try {
      const { keptForRuns } = await deleteDataset(dataset.id);
      if (useDraftStore.getState().dataset?.id === dataset.id) useDraftStore.getState().setDataset(null);
      showToast({
        kind: "success",
        message: keptForRuns ? `Deleted ${dataset.name}; the runs that used it keep it in their history` : `Deleted ${dataset.name}`,
      });
      onDeleted();
    } catch (reason) {
      setError(messageOf(reason));
      setBusy(false);
    }
  }

  return (
    <li data-testid="stored-dataset" className="flex flex-col gap-1 py-2">
      {mode === "rename" ? (
        <form
          className="flex items-center gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            void saveName();
          }}
        >
          <input
            aria-label={`New name for ${dataset.name}`}
            value={name}
            maxLength={200}
            autoFocus
            onChange={(event) => setName(event.currentTarget.value)}
            onKeyDown={(event) => {
              if (event.key !== "Escape") return;
              // Escape cancels the rename, not the whole dialog.
              event.stopPropagation();
              setName(dataset.name);
              setMode("view");
            }}
            className="h-8 min-w-0 flex-1 rounded-md border border-zinc-300 px-2 text-sm focus:border-accent"
          />
          <button type="submit" disabled={busy || name.trim() === ""} className={SMALL_BUTTON}>
            Save
          </button>
          <button
            type="button"
            onClick={() => {
              setName(dataset.name);
              setMode("view");
            }}
            className={SMALL_BUTTON}
          >
            Cancel
          </button>
        </form>
      ) : (
        <div className="flex items-center gap-2">
          <span className="min-w-0 flex-1 truncate font-medium text-zinc-900" title={dataset.name}>
            {dataset.name}
          </span>
          <span className="shrink-0 text-xs text-zinc-600 tabular-nums">{formatRowCount(dataset.rowCount)}</span>
          {mode === "view" ? (
            <>
              <button type="button" aria-label={`Rename ${dataset.name}`} onClick={() => setMode("rename")} className={SMALL_BUTTON}>
                Rename
              </button>
              <button type="button" aria-label={`Delete ${dataset.name}`} onClick={() => setMode("delete")} className={SMALL_BUTTON}>
                Delete
              </button>
            </>
          ) : (
            <>
              <button
                type="button"
                aria-label={`Yes, delete ${dataset.name}`}
                disabled={busy}
                onClick={() => void remove()}
                className="h-7 shrink-0 rounded-md border border-red-700 bg-red-700 px-2.5 text-xs font-medium text-white hover:bg-red-800 disabled:opacity-60"
              >
                Delete
              </button>
              <button type="button" onClick={() => setMode("view")} className={SMALL_BUTTON}>
                Keep
              </button>
            </>
          )}
        </div>
      )}
      {mode === "delete" && <p className="text-xs text-zinc-700">Delete {dataset.name}? A run that used it keeps it for its history.</p>}
      {error && (
        <p role="alert" className="text-xs text-red-700">
          {error}
        </p>
      )}
    </li>
  );
}
