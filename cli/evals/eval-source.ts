import type { EvalBaseline } from "@/lib/api/eval-baseline";
import type { CreateEvalInput, EvalDetail, EvalSummary } from "@/lib/api/evals";
import type { EvalExportFormat } from "@/lib/formats/eval-exports/export-file-name";
import { findEvalBaseline } from "@/lib/services/eval-baseline";
import { changeRunStatus } from "@/lib/services/runs";
import { createEval, evalComparison, evalExport, getEval, type EvalFile } from "@/lib/services/evals";
import { CliError } from "../cli-error";
import { callServer, type DataTarget } from "../data-target";
import { startLocalEngine } from "../local-engine";
import { downloadFromServer, warnKeysNotSent } from "../server-files";

/**
 * Where `parallaxr eval run` makes and reads its eval: the same service functions the API's
 * routes call (on the data folder, with a worker in this process), or those routes on a server.
 * Either way an export is the text the API downloads, byte for byte.
 */
export interface EvalSource {
  create(input: CreateEvalInput): Promise<EvalSummary>;
  get(evalId: string): Promise<EvalDetail>;
  exportFile(evalId: string, format: EvalExportFormat, run: string | null): Promise<EvalFile>;
  comparison(evalId: string): Promise<EvalFile>;
  baseline(runId: string): Promise<EvalBaseline>;
  /** Cancels the eval's cells that have not run (Ctrl-C): nothing is called for it afterwards. */
  cancel(evalId: string): Promise<void>;
  /** How often following the eval reads it again, in milliseconds. */
  readonly pollMs: number;
  close(): Promise<void>;
}

/** Opens the target: the database with a worker that runs the eval's cells, or a server's API. */
export async function openEvalSource(
  target: DataTarget,
  { dotenv, concurrency, onWarning }: { dotenv: Record<string, string>; concurrency: number; onWarning: (message: string) => void },
): Promise<EvalSource> {
  if (target.kind === "server") return serverSource(target, dotenv, onWarning);
  const { db, close } = await startLocalEngine(target, { dotenv, concurrency, onWarning });
  const userId = target.userId;
  return {
    create: async (input) => (await createEval({ db }, { userId, input })).eval,
    get: (evalId) => getEval({ db }, { userId, evalId }),
    exportFile: (evalId, format, run) => evalExport({ db }, { userId, evalId, format, run }),
    comparison: (evalId) => evalComparison({ db }, { userId, evalId }),
    baseline: (runId) => findEvalBaseline({ db }, { userId, runId }),
    cancel: async (evalId) => {
      await changeRunStatus({ db }, { userId, runId: evalId, action: "cancel" });
    },
    pollMs: 50,
    close,
  };
}

function serverSource(
  target: Extract<DataTarget, { kind: "server" }>,
  dotenv: Record<string, string>,
  onWarning: (message: string) => void,
): EvalSource {
  warnKeysNotSent(target, dotenv, onWarning);
  return {
    create: async (input) => (await callServer<{ eval: EvalSummary }>(target, "/api/v1/evals", { method: "POST", body: input })).eval,
    get: (evalId) => callServer<EvalDetail>(target, `/api/v1/evals/${evalId}`),
    exportFile: (evalId, format, run) =>
      serverFile(target, `/api/v1/evals/${evalId}/export/${format}${run === null ? "" : `?run=${encodeURIComponent(run)}`}`),
    comparison: (evalId) => serverFile(target, `/api/v1/evals/${evalId}/comparison.md`),
    baseline: (runId) => callServer<EvalBaseline>(target, `/api/v1/evals/runs/${encodeURIComponent(runId)}`),
    cancel: async (evalId) => {
      await callServer(target, `/api/v1/runs/${evalId}/cancel`, { method: "POST" });
    },
    pollMs: 200,
    close: async () => {},
  };
}

/** A file the server sends for download: its text exactly as sent, and the name its Content-Disposition gives. */
async function serverFile(target: Extract<DataTarget, { kind: "server" }>, path: string): Promise<EvalFile> {
  const { bytes, headers } = await downloadFromServer(target, path);
  const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
  const disposition = headers.get("content-disposition") ?? "";
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
  const plain = /filename="([^"]*)"/i.exec(disposition)?.[1];
  const filename = encoded ? decodeURIComponent(encoded) : plain;
  if (!filename) throw new CliError(`The server at ${target.url} sent ${path} without a file name.`);
  return { filename, text, contentType: headers.get("content-type") ?? "" };
}
