/**
 * `parallaxr batch-run` through a server's REST API (`--server URL`, or the app that holds the
 * data folder): the batch runs there, in a run folder under the server's data folder, and this
 * command downloads each finished job's images and receipts, then run.json, into --out.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync, writeSync } from "node:fs";
import path from "node:path";
import type { BatchDetail, CreateBatchOutput } from "@/lib/api/batches";
import { CliError, exitCodes } from "../cli-error";
import { callServer, type DataTarget } from "../data-target";
import { downloadFromServer, warnKeysNotSent } from "../server-files";
import type { BatchSource } from "./batch-source";

/** Largest file taken from a server (an image or receipt): 64 MiB, above any vendor's largest image. */
const MAX_DOWNLOAD_BYTES = 64 * 1024 * 1024;

/** A name from a server is only ever a plain file in the run folder. */
function plainName(name: string): string {
  if (name === "" || path.basename(name) !== name || name.startsWith(".") || name.includes("\\")) {
    throw new CliError(`Refusing to write a file named ${JSON.stringify(name)} from the server: not a plain file name.`);
  }
  return name;
}

/** Writes bytes under a temporary name and renames: a reader never sees half a file. */
function writeAtomically(file: string, bytes: Uint8Array): void {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  const fd = openSync(temp, "w", 0o644);
  try {
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  closeSync(fd);
  renameSync(temp, file);
}

async function download(target: Extract<DataTarget, { kind: "server" }>, route: string): Promise<Uint8Array> {
  return (await downloadFromServer(target, route, { maxBytes: MAX_DOWNLOAD_BYTES })).bytes;
}

/** The batch on a server, its files downloaded into `outDir` as its jobs finish. */
export function serverBatchSource(
  target: Extract<DataTarget, { kind: "server" }>,
  { dotenv, outDir, onWarning }: { dotenv: Record<string, string>; outDir: string; onWarning: (message: string) => void },
): BatchSource {
  // the image vendors' keys too
  warnKeysNotSent(target, dotenv, onWarning, { alsoKeys: /^(OPENAI|GEMINI|BFL)_API_KEY$/ });
  const folder = path.resolve(outDir);
  const batchRoute = (id: string) => `/api/v1/batches/${encodeURIComponent(id)}`;
  return {
    async create(input) {
      const created = await callServer<CreateBatchOutput>(target, "/api/v1/batches", { method: "POST", body: input });
      if (!("batch" in created)) throw new CliError(`The server at ${target.url} answered a plan where a batch was asked for.`);
      mkdirSync(folder, { recursive: true });
      // The inputs as the run folder keeps them, so the downloaded folder is a run folder too.
      writeFileSync(path.join(folder, plainName(input.prompts.name)), input.prompts.text);
      writeFileSync(path.join(folder, plainName(input.matrix.name)), input.matrix.text);
      return { id: created.batch.id, runId: created.batch.runId, outDir: folder, plan: created.plan, requeued: null };
    },
    resume() {
      throw new CliError(
        `--resume continues a run folder on this machine's data folder; a batch on the server at ${target.url} is resumed there ` +
          "(its /batches page, or POST /api/v1/batches/{id}/resume).",
        exitCodes.usage,
      );
    },
    get: (id, query) => {
      const search = new URLSearchParams(Object.entries(query).map(([key, value]) => [key, String(value)]));
      return callServer<BatchDetail>(target, `${batchRoute(id)}?${search}`);
    },
    change: (id, action) => callServer<unknown>(target, `${batchRoute(id)}/${action}`, { method: "POST" }),
    async jobFinished(id, job) {
      for (const name of [...job.artifacts.image_paths, ...job.artifacts.receipt_paths]) {
        writeAtomically(path.join(folder, plainName(name)), await download(target, `${batchRoute(id)}/images/${encodeURIComponent(name)}`));
      }
    },
    async ended(id) {
      writeAtomically(path.join(folder, "run.json"), await download(target, `${batchRoute(id)}/run.json`));
    },
    pollMs: 200,
    close: async () => {},
  };
}
