// Typed fetch helpers for the browser. Every helper throws an ApiError on a non-2xx answer,
// carrying the server's own `error.message` so the UI can show it as is.
import type { RunPlanEstimate } from "@/lib/api/responses";
import type { CreateRunInput, Run, RunSummary } from "./run-types";

/**
 * An error answer from /api/v1, with the server's message, code and offending field, and the run
 * a 409 to starting a run names (the prompt's run already in progress).
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | null;
  readonly field: string | null;
  readonly runId: string | null;

  constructor(message: string, options: { status: number; code?: string | null; field?: string | null; runId?: string | null }) {
    super(message);
    this.name = "ApiError";
    this.status = options.status;
    this.code = options.code ?? null;
    this.field = options.field ?? null;
    this.runId = options.runId ?? null;
  }
}

type ErrorBody = { error?: { code?: string; message?: string; field?: string; runId?: string } };

/** Fetches path as JSON; throws an ApiError with the server's message on a non-2xx answer. */
export async function requestJson<T>(path: string, init?: RequestInit): Promise<T> {
  const response = await fetch(path, {
    ...init,
    headers: { accept: "application/json", ...(init?.body ? { "content-type": "application/json" } : {}) },
    cache: "no-store",
  });
  const text = await response.text();
  let body: unknown = null;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = null;
    }
  }
  if (!response.ok) {
    const error = (body as ErrorBody | null)?.error;
    // A server that asks for tokens answers 401 once the browser's sign-in is gone (revoked,
    // expired): back to the sign-in page, then here again.
    if (response.status === 401 && typeof window !== "undefined" && window.location.pathname !== "/sign-in") {
      window.location.assign(`/sign-in?next=${encodeURIComponent(window.location.pathname + window.location.search)}`);
    }
    throw new ApiError(error?.message || `The server answered ${response.status} ${response.statusText}`.trim(), {
      status: response.status,
      code: error?.code,
      field: error?.field,
      runId: error?.runId,
    });
  }
  return body as T;
}

/** A run just created: no cells yet, the plan the server made for it, and the change cursor to follow from. */
export type CreatedRun = Run & { plan: RunPlanEstimate; cursor: number };

/** Starts a run; the server plans its cells and starts working on them. */
export function createRun(input: CreateRunInput): Promise<CreatedRun> {
  return requestJson<CreatedRun>("/api/v1/runs", { method: "POST", body: JSON.stringify(input) });
}

/**
 * A browser keeps a keepalive request going after the page is gone, but only for bodies of up to
 * 64 KiB in flight (the Fetch standard's limit); a larger one is sent as a plain request, which
 * the page's unload may cut short.
 */
const KEEPALIVE_BYTES = 64 * 1024;

/**
 * Sends JSON as the page is left (pagehide): a same-origin fetch with keepalive, so it passes the
 * request gate like any other (Origin, Sec-Fetch-Site, Content-Type: application/json). Nothing
 * waits for the answer: there is no page left to show it.
 */
export function sendAsPageLeaves(path: string, method: "PATCH" | "POST", body: unknown): void {
  const json = JSON.stringify(body);
  const keepalive = new Blob([json]).size < KEEPALIVE_BYTES;
  fetch(path, { method, body: json, keepalive, headers: { "content-type": "application/json" }, cache: "no-store" }).catch(() => {});
}

/**
 * How much of each output the page holds: the grid shows 200 characters, and one more tells it to
 * add an ellipsis. A cell's dialog reads the whole output when it opens (cells say outputTruncated);
 * a run of 40,000 long answers is tens of megabytes in full.
 */
export const PREVIEW_CHARS = 201;

/** A run with all of its cells, each output cut to PREVIEW_CHARS. */
export function getRun({ id }: { id: string }): Promise<Run> {
  return requestJson<Run>(`/api/v1/runs/${encodeURIComponent(id)}?outputChars=${PREVIEW_CHARS}`);
}

/** The lifecycle actions a person can take on an active run. */
export type RunAction = "pause" | "resume" | "cancel";

/** Pauses, resumes or cancels a run; answers the run without its cells. */
export function changeRun({ id, action }: { id: string; action: RunAction }): Promise<RunSummary> {
  return requestJson<RunSummary>(`/api/v1/runs/${encodeURIComponent(id)}/${action}`, { method: "POST" });
}
