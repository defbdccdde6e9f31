// A Web Worker that reads and parses a dataset file, so a large file never blocks the page.
// Started by parse-dataset-in-worker.ts; it reads the File itself (passed by structured clone,
// which shares the file, not its bytes) and sends the rows back in slices. For an upload it also
// writes the POST body here and sends only the first rows back: taking 100,000 rows (50 MB) in
// through structured clone cost the page 50-150 ms per 2,000-row message and JSON.stringify of
// the body ~100 ms per slice plus ~750 ms to finish (Chromium trace of a 50 MB CSV, 2-core VM).
import { parseDatasetText } from "@/lib/formats/parse-dataset";
import { MAX_DATASET_ROWS, datasetUploadBlob } from "./datasets-api";
import { ROWS_PER_MESSAGE, sliceRows, toWorkerFailure, type ParseResponse } from "./dataset-worker-messages";
import type { UploadRequest, UploadResponse } from "./parse-dataset-in-worker";

// The DOM lib types `self` as a Window; in a worker only postMessage and onmessage are used.
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<UploadRequest>) => void) | null;
  postMessage(message: ParseResponse | UploadResponse): void;
};

scope.onmessage = async (event) => {
  const { file, name, upload } = event.data;
  try {
    const { headers, rows, delimiter } = parseDatasetText(await file.text(), name);
    const sent = upload ? rows.slice(0, upload.keepRows) : rows;
    for (const slice of sliceRows(sent, ROWS_PER_MESSAGE)) scope.postMessage({ type: "rows", rows: slice });
    if (!upload) {
      scope.postMessage({ type: "done", headers });
      return;
    }
    // A Blob crosses to the page as a handle; its bytes are not copied on the page's thread.
    const body = rows.length > MAX_DATASET_ROWS ? null : await datasetUploadBlob({ name, headers, rows });
    scope.postMessage({ type: "prepared", headers, rowCount: rows.length, body, delimiter: delimiter ?? null });
  } catch (error) {
    scope.postMessage({ type: "failed", failure: toWorkerFailure(error, name) });
  }
};
