"use client";

import { useId, useState } from "react";
import { ApiError } from "@/lib/client/api";
import { uploadDatasetBlob } from "@/lib/client/datasets-api";
import type { LoadedDataset } from "@/lib/client/draft-store";
import { prepareDatasetUpload } from "@/lib/client/parse-dataset-in-worker";
import { showToast } from "@/lib/client/toast-store";
import { pillBaseClassName } from "@/components/toolbar/pill-class-name";
import { SpinnerIcon, UploadIcon } from "@/components/ui/icons";
import { DatasetMenu } from "./dataset-menu";
import { describeAlreadyStored, describeUploadFailure, describeUploadSuccess, tooManyRowsMessage } from "./describe-upload";

/**
 * Rows of an upload the page keeps (all of a file this size or smaller). A larger dataset is
 * held like one loaded from the server: its first rows for the preview, the rest stay stored.
 */
const ROWS_KEPT_IN_PAGE = 1_000;

type DatasetUploadButtonProps = {
  /** The stored dataset, with all of its rows up to ROWS_KEPT_IN_PAGE, else the first ones. */
  onLoaded(dataset: LoadedDataset & { id: string }): void;
  /** Called with the message the error toast shows, for callers that also want it. */
  onError?(message: string): void;
  disabled?: boolean;
};

/**
 * "Upload dataset": a real file input (reachable with Tab, announced as a button) dressed as a
 * pill. The file is parsed (and its upload body written) in a Web Worker, stored on the server, then handed to onLoaded; a
 * toast says how it went. The pill's other half opens the stored datasets (DatasetMenu), where the
 * spec puts dataset selection: choose, rename, delete.
 */
export function DatasetUploadButton({ onLoaded, onError, disabled = false }: DatasetUploadButtonProps) {
  const inputId = useId();
  const [busy, setBusy] = useState(false);

  async function handleFile(file: File) {
    setBusy(true);
    try {
      // Parsed, and the upload body written, in a worker: the page only sends it.
      const { headers, rowCount, rows, body, delimiter } = await prepareDatasetUpload(file, { keepRows: ROWS_KEPT_IN_PAGE });
      if (body === null) throw new Error(tooManyRowsMessage(file.name, rowCount));
      const stored = await uploadDatasetBlob(body);
      onLoaded({ id: stored.id, name: stored.name, headers, rowCount: stored.rowCount, rows });
      showToast({
        kind: "success",
        message: stored.alreadyStored
          ? describeAlreadyStored(stored.name, stored.rowCount, headers.length)
          : describeUploadSuccess(stored.name, stored.rowCount, headers.length, delimiter),
      });
    } catch (error) {
      const message = describeUploadFailure(file.name, error, error instanceof ApiError);
      showToast({ kind: "error", message });
      onError?.(message);
    } finally {
      setBusy(false);
    }
  }

  const label = busy ? "Uploading dataset…" : "Upload dataset";
  const inactive = busy || disabled;
  return (
    <span className="inline-flex shrink-0 items-center">
      <label
        htmlFor={inputId}
        aria-busy={busy}
        className={`${pillBaseClassName} relative rounded-r-none border-r-0 pr-2.5 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-accent-strong ${
          inactive ? (busy ? "cursor-wait" : "cursor-not-allowed opacity-60") : "cursor-pointer hover:border-accent hover:bg-white"
        }`}
      >
        {busy ? <SpinnerIcon aria-hidden="true" className="size-4 animate-spin" /> : <UploadIcon aria-hidden="true" className="size-4" />}
        {label}
        <input
          id={inputId}
          type="file"
          accept=".csv,.json,.tsv,.txt,text/csv,application/json"
          aria-label={label}
          aria-busy={busy}
          disabled={inactive}
          className="sr-only"
          onChange={(event) => {
            const file = event.currentTarget.files?.[0];
            // Clear the input so choosing the same file again (after fixing it) fires a change.
            event.currentTarget.value = "";
            if (file) void handleFile(file);
          }}
        />
      </label>
      <DatasetMenu disabled={busy} />
    </span>
  );
}
