// The page's calls to /api/v1/batches (types from lib/api/batches.ts, the schemas the routes check
// their answers against).
import { Unzip, UnzipInflate } from "fflate";
import type { BatchAction, BatchDetail, BatchJob, BatchList, BatchSummary, CreateBatchInput, CreateBatchOutput } from "@/lib/api/batches";
import { MAX_BATCH_JOBS_PAGE } from "@/lib/api/batches";
import { requestJson } from "@/lib/client/api";
import type { BatchInputFile } from "./build-plan";

const base = (id: string) => `/api/v1/batches/${encodeURIComponent(id)}`;

/** Where an image or receipt of a batch is read from (the route serves only the files its jobs list). */
export const batchFileUrl = (id: string, file: string) => `${base(id)}/images/${encodeURIComponent(file)}`;
/** run.json of a batch, as the run folder holds it. */
export const batchManifestUrl = (id: string) => `${base(id)}/run.json`;
/** The run folder as a zip. */
export const batchZipUrl = (id: string) => `${base(id)}/download.zip`;

/** Plans (dryRun) or starts a batch. */
export function createBatch(body: CreateBatchInput): Promise<CreateBatchOutput> {
  return requestJson<CreateBatchOutput>("/api/v1/batches", { method: "POST", body: JSON.stringify(body) });
}

/** A batch's summary and a page of its jobs (the most the API gives at once, by default). */
export function getBatch(
  id: string,
  { offset = 0, limit = MAX_BATCH_JOBS_PAGE, status }: { offset?: number; limit?: number; status?: BatchJob["status"] } = {},
): Promise<BatchDetail> {
  const query = new URLSearchParams({ offset: String(offset), limit: String(limit), ...(status ? { status } : {}) });
  return requestJson<BatchDetail>(`${base(id)}?${query}`);
}

/**
 * Every job of a batch with one status, a page at a time, up to `max` jobs (the gallery's
 * successful jobs: 20,000 by default, far more images than a page can show).
 */
export async function getAllJobs(id: string, status: BatchJob["status"], max = 20_000): Promise<BatchJob[]> {
  const jobs: BatchJob[] = [];
  for (;;) {
    const page = await getBatch(id, { offset: jobs.length, status });
    jobs.push(...page.jobs);
    if (page.jobs.length === 0 || jobs.length >= page.jobsTotal || jobs.length >= max) return jobs;
  }
}

/** The newest batches first. */
export async function listBatches(limit = 20): Promise<BatchSummary[]> {
  return (await requestJson<BatchList>(`/api/v1/batches?limit=${limit}`)).batches;
}

export async function changeBatch(id: string, action: BatchAction): Promise<void> {
  await requestJson<unknown>(`${base(id)}/${action}`, { method: "POST" });
}

/** A receipt's text, pretty-printed when it is JSON. */
export async function getReceiptText(id: string, file: string): Promise<string> {
  const response = await fetch(batchFileUrl(id, file), { cache: "no-store" });
  if (!response.ok) throw new Error(`The receipt ${file} could not be read (the server answered ${response.status}).`);
  const text = await response.text();
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/**
 * The prompt and matrix files a batch was made from ("Re-run with tweaks"): the copies in its run
 * folder, read from the folder's zip as it streams in. The zip holds run.json and the two copies
 * before the images, so the download is stopped as soon as both are read, whatever the run's size.
 */
export async function getBatchInputs(
  id: string,
  names: { prompts: string; matrix: string },
): Promise<{ prompts: BatchInputFile; matrix: BatchInputFile }> {
  const controller = new AbortController();
  const response = await fetch(batchZipUrl(id), { cache: "no-store", signal: controller.signal });
  if (!response.ok || !response.body) throw new Error(`The run folder could not be read (the server answered ${response.status}).`);
  const wanted = new Map([
    [names.prompts, "prompts"],
    [names.matrix, "matrix"],
  ]);
  const found: Record<string, BatchInputFile> = {};
  const unzip = new Unzip();
  unzip.register(UnzipInflate);
  unzip.onfile = (file) => {
    const name = file.name.split("/").pop() ?? file.name;
    const role = wanted.get(name);
    if (!role || found[role]) return;
    const chunks: Uint8Array[] = [];
    file.ondata = (error, chunk, final) => {
      if (error) return;
      chunks.push(chunk);
      if (final) found[role] = { name, text: new TextDecoder().decode(concat(chunks)).replace(/^\uFEFF/, "") };
    };
    file.start();
  };
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      unzip.push(value ?? new Uint8Array(0), done);
      if (found.prompts && found.matrix) break;
      if (done) break;
    }
  } finally {
    controller.abort();
  }
  if (!found.prompts || !found.matrix) {
    throw new Error(`The run folder has no ${!found.prompts ? names.prompts : names.matrix}: the builder cannot open on its inputs.`);
  }
  return { prompts: found.prompts, matrix: found.matrix };
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, chunk) => n + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}
