// Parses an uploaded dataset file off the main thread. The parser is lib/formats/parse-dataset.ts
// either way; its DatasetParseError (file, row and fix) reaches the caller unchanged.
import { parseDatasetText, type CsvDelimiter, type ParsedDataset } from "@/lib/formats/parse-dataset";
import { MAX_DATASET_ROWS, datasetUploadBlob } from "./datasets-api";
import { describeReadFailure, fromWorkerFailure, type ParseRequest, type ParseResponse } from "./dataset-worker-messages";

/** Page to worker: parse, and with `upload` also write the POST body and send back only the first rows. */
export type UploadRequest = ParseRequest & { upload?: { keepRows: number } };

/**
 * Worker to page, after the rows of an upload request: the sizes, the body (null when over the
 * cap) and a CSV file's delimiter (null for JSON).
 */
export type UploadResponse = { type: "prepared"; headers: string[]; rowCount: number; body: Blob | null; delimiter: CsvDelimiter | null };

/** A file ready to store: its columns, row count, first rows and the POST body. */
export type PreparedUpload = {
  headers: string[];
  rowCount: number;
  /** The first `keepRows` rows (all of them in a smaller file). */
  rows: Record<string, string>[];
  /** The body of POST /api/v1/datasets; null when the file has more rows than a dataset may hold. */
  body: Blob | null;
  /** The delimiter a CSV file was read with (null for JSON), for the upload's message. */
  delimiter: CsvDelimiter | null;
};

/**
 * Reads and parses a CSV or JSON file in a Web Worker. Throws a DatasetParseError for a file
 * that is not a valid dataset, or an Error naming the file when it cannot be read. Parses on the
 * main thread only where there is no Worker, or the worker script fails to start.
 */
export async function parseDatasetFile(file: File): Promise<ParsedDataset> {
  const answer = await inWorker(file, undefined);
  if (answer === null) {
    // the same shape either way: the worker's answer has no delimiter (only an upload reports one)
    const { headers, rows } = await parseOnMainThread(file);
    return { headers, rows };
  }
  return { headers: answer.headers, rows: answer.rows };
}

/**
 * Parses a file and writes its upload body, both in a Web Worker, and answers the first
 * `keepRows` rows: the page never holds or serializes the rest, so a 50 MB file costs it one
 * message of rows. Falls back to the main thread as parseDatasetFile does.
 */
export async function prepareDatasetUpload(file: File, { keepRows }: { keepRows: number }): Promise<PreparedUpload> {
  const answer = await inWorker(file, { keepRows });
  if (answer !== null && answer.prepared) return { ...answer.prepared, rows: answer.rows };
  const { headers, rows, delimiter } = await parseOnMainThread(file);
  const body = rows.length > MAX_DATASET_ROWS ? null : await datasetUploadBlob({ name: file.name, headers, rows });
  return { headers, rowCount: rows.length, rows: rows.slice(0, keepRows), body, delimiter: delimiter ?? null };
}

type WorkerAnswer = { headers: string[]; rows: Record<string, string>[]; prepared: Omit<UploadResponse, "type"> | null };

/** The worker's answer, or null when there is no worker to ask (the caller parses on this thread). */
function inWorker(file: File, upload: UploadRequest["upload"]): Promise<WorkerAnswer | null> {
  if (typeof Worker === "undefined") return Promise.resolve(null);
  return new Promise<WorkerAnswer | null>((resolve, reject) => {
    let worker: Worker;
    try {
      // This exact form (a literal URL next to import.meta.url) is what Turbopack and webpack
      // detect to bundle the worker as its own entry. Turbopack (Next 16.4) starts it as a
      // classic worker whatever the type says; nothing here depends on module semantics.
      worker = new Worker(new URL("./dataset-parser.worker.ts", import.meta.url), { type: "module" });
    } catch {
      resolve(null);
      return;
    }
    const rows: Record<string, string>[] = [];
    let heardBack = false;
    worker.onmessage = (event: MessageEvent<ParseResponse | UploadResponse>) => {
      heardBack = true;
      const message = event.data;
      if (message.type === "rows") {
        for (const row of message.rows) rows.push(row);
        return;
      }
      worker.terminate();
      if (message.type === "done") resolve({ headers: message.headers, rows, prepared: null });
      else if (message.type === "prepared") {
        const { headers, rowCount, body, delimiter } = message;
        resolve({ headers, rows, prepared: { headers, rowCount, body, delimiter } });
      } else reject(fromWorkerFailure(message.failure));
    };
    // An error event (not a "failed" message) means the worker itself did not run: its script
    // failed to load or evaluate. Parsing on this thread still gets the person their dataset.
    worker.onerror = (event) => {
      event.preventDefault();
      worker.terminate();
      if (heardBack) reject(new Error(describeReadFailure(file.name, event.message || "the parser stopped")));
      else resolve(null);
    };
    worker.onmessageerror = () => {
      worker.terminate();
      reject(new Error(describeReadFailure(file.name, "the parsed rows could not be passed back")));
    };
    worker.postMessage({ file, name: file.name, upload } satisfies UploadRequest);
  });
}

async function parseOnMainThread(file: File): Promise<ParsedDataset> {
  let text: string;
  try {
    text = await file.text();
  } catch (error) {
    throw new Error(describeReadFailure(file.name, error instanceof Error ? error.message : String(error)));
  }
  return parseDatasetText(text, file.name);
}
