// A Web Worker that reads and parses a dataset file, so a large file never blocks the page.
// Started by parse-dataset-in-worker.ts; it reads the File itself (passed by structured clone,
// which shares the file, not its bytes) and sends the rows back in slices.
import { parseDatasetText } from "@/lib/formats/parse-dataset";
import { ROWS_PER_MESSAGE, sliceRows, toWorkerFailure, type ParseRequest, type ParseResponse } from "./dataset-worker-messages";

// The DOM lib types `self` as a Window; in a worker only postMessage and onmessage are used.
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<ParseRequest>) => void) | null;
  postMessage(message: ParseResponse): void;
};

scope.onmessage = async (event) => {
  const { file, name } = event.data;
  try {
    const { headers, rows } = parseDatasetText(await file.text(), name);
    for (const slice of sliceRows(rows, ROWS_PER_MESSAGE)) scope.postMessage({ type: "rows", rows: slice });
    scope.postMessage({ type: "done", headers });
  } catch (error) {
    scope.postMessage({ type: "failed", failure: toWorkerFailure(error, name) });
  }
};
