// Parses an uploaded dataset file off the main thread. The parser is lib/formats/parse-dataset.ts
// either way; its DatasetParseError (file, row and fix) reaches the caller unchanged.
import { parseDatasetText, type ParsedDataset } from "@/lib/formats/parse-dataset";
import { describeReadFailure, fromWorkerFailure, type ParseRequest, type ParseResponse } from "./dataset-worker-messages";

/**
 * Reads and parses a CSV or JSON file in a Web Worker. Throws a DatasetParseError for a file
 * that is not a valid dataset, or an Error naming the file when it cannot be read. Parses on the
 * main thread only where there is no Worker, or the worker script fails to start.
 */
export function parseDatasetFile(file: File): Promise<ParsedDataset> {
  if (typeof Worker === "undefined") return parseOnMainThread(file);
  return new Promise<ParsedDataset>((resolve, reject) => {
    let worker: Worker;
    try {
      // This exact form (a literal URL next to import.meta.url) is what Turbopack and webpack
      // detect to bundle the worker as its own entry. Turbopack (Next 16.4) starts it as a
      // classic worker whatever the type says; nothing here depends on module semantics.
      worker = new Worker(new URL("./dataset-parser.worker.ts", import.meta.url), { type: "module" });
    } catch {
      resolve(parseOnMainThread(file));
      return;
    }
    const rows: Record<string, string>[] = [];
    let heardBack = false;
    worker.onmessage = (event: MessageEvent<ParseResponse>) => {
      heardBack = true;
      const message = event.data;
      if (message.type === "rows") {
        for (const row of message.rows) rows.push(row);
        return;
      }
      worker.terminate();
      if (message.type === "done") resolve({ headers: message.headers, rows });
      else reject(fromWorkerFailure(message.failure));
    };
    // An error event (not a "failed" message) means the worker itself did not run: its script
    // failed to load or evaluate. Parsing on this thread still gets the person their dataset.
    worker.onerror = (event) => {
      event.preventDefault();
      worker.terminate();
      if (heardBack) reject(new Error(describeReadFailure(file.name, event.message || "the parser stopped")));
      else resolve(parseOnMainThread(file));
    };
    worker.onmessageerror = () => {
      worker.terminate();
      reject(new Error(describeReadFailure(file.name, "the parsed rows could not be passed back")));
    };
    worker.postMessage({ file, name: file.name } satisfies ParseRequest);
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
