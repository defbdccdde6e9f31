import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DatasetParseError, parseDatasetText } from "@/lib/formats/parse-dataset";
import { ROWS_PER_MESSAGE, fromWorkerFailure, sliceRows, toWorkerFailure, type ParseResponse } from "@/lib/client/dataset-worker-messages";
import { parseDatasetFile } from "@/lib/client/parse-dataset-in-worker";

const csvOf = (count: number) => ["id,text", ...Array.from({ length: count }, (_, index) => `${index},"value, ${index}"`)].join("\r\n");

describe("worker failures as plain data", () => {
  it("rebuilds a DatasetParseError with the same message, file, row and fix after structured clone", () => {
    let original: DatasetParseError | null = null;
    try {
      parseDatasetText('a,b\n1,"open\n', "broken.csv");
    } catch (error) {
      original = error as DatasetParseError;
    }
    expect(original).toBeInstanceOf(DatasetParseError);
    const rebuilt = fromWorkerFailure(structuredClone(toWorkerFailure(original, "broken.csv")));
    expect(rebuilt).toBeInstanceOf(DatasetParseError);
    expect(rebuilt.message).toBe(original!.message);
    expect(rebuilt.message).toMatch(/^broken\.csv, row 2: a quoted value is never closed\./);
    expect(rebuilt).toMatchObject({ file: "broken.csv", row: 2, hint: original!.hint });
  });

  it("names the file when it could not be read at all", () => {
    const error = fromWorkerFailure(toWorkerFailure(new Error("NotReadableError"), "gone.csv"));
    expect(error).not.toBeInstanceOf(DatasetParseError);
    expect(error.message).toBe(
      "gone.csv: the file could not be read (NotReadableError). Choose the file again, or check that it is a CSV or JSON text file.",
    );
  });

  it("slices rows in order without losing any", () => {
    const rows = Array.from({ length: 5 }, (_, index) => index);
    expect(sliceRows(rows, 2)).toEqual([[0, 1], [2, 3], [4]]);
    expect(sliceRows([], 2)).toEqual([]);
  });
});

describe("parseDatasetFile", () => {
  it("parses on the main thread where there is no Worker, with the parser's errors", async () => {
    expect(typeof Worker).toBe("undefined");
    const parsed = await parseDatasetFile(new File([csvOf(3)], "three.csv"));
    expect(parsed).toEqual({ headers: ["id", "text"], rows: [0, 1, 2].map((n) => ({ id: String(n), text: `value, ${n}` })) });
    await expect(parseDatasetFile(new File(["a,a\n1,2"], "twice.csv"))).rejects.toThrow(
      'twice.csv, row 1: the column name "a" appears twice (columns 1 and 2).',
    );
  });

  describe("through the worker module", () => {
    // The real worker module runs in this thread behind a stand-in Worker that passes every
    // message through structuredClone, as the browser does.
    type Scope = { onmessage: ((event: { data: unknown }) => Promise<void>) | null; postMessage(message: ParseResponse): void };
    const received: ParseResponse[] = [];
    let workerUrl: URL | null = null;
    const globals = globalThis as unknown as { self?: Scope; Worker?: unknown };

    beforeAll(async () => {
      let page: { onmessage: ((event: { data: ParseResponse }) => void) | null } | null = null;
      const scope: Scope = {
        onmessage: null,
        postMessage(message) {
          received.push(message);
          const copy = structuredClone(message);
          queueMicrotask(() => page?.onmessage?.({ data: copy }));
        },
      };
      globals.self = scope;
      await import("@/lib/client/dataset-parser.worker");
      globals.Worker = class {
        onmessage: ((event: { data: ParseResponse }) => void) | null = null;
        onerror = null;
        onmessageerror = null;
        constructor(url: URL) {
          workerUrl = url;
          // eslint-disable-next-line @typescript-eslint/no-this-alias -- the fake Worker is the page's end of the channel
          page = this;
        }
        postMessage(message: unknown) {
          void scope.onmessage?.({ data: structuredClone(message) });
        }
        terminate() {}
      };
    });
    afterAll(() => {
      delete globals.self;
      delete globals.Worker;
    });

    it("starts the worker file next to it and gets every row back in slices", async () => {
      received.length = 0;
      const count = ROWS_PER_MESSAGE * 2 + 17;
      const parsed = await parseDatasetFile(new File([csvOf(count)], "many.csv"));
      expect(workerUrl?.pathname.endsWith("/lib/client/dataset-parser.worker.ts")).toBe(true);
      expect(parsed.headers).toEqual(["id", "text"]);
      expect(parsed.rows).toHaveLength(count);
      expect(parsed.rows[count - 1]).toEqual({ id: String(count - 1), text: `value, ${count - 1}` });
      expect(received.map((message) => (message.type === "rows" ? message.rows.length : message.type))).toEqual([
        ROWS_PER_MESSAGE,
        ROWS_PER_MESSAGE,
        17,
        "done",
      ]);
    });

    it("rethrows the parser's error as a DatasetParseError", async () => {
      const failure = parseDatasetFile(new File(['[{"a": 1}, 2]'], "items.json"));
      await expect(failure).rejects.toBeInstanceOf(DatasetParseError);
      await expect(failure).rejects.toThrow("items.json: the item at index 1 is a number, not an object.");
    });
  });
});
