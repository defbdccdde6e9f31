import { classifyHttpFailure, rethrowAsProviderError, type ErrorContext } from "../adapters/classify-error";
import { createGuardedFetch, MAX_IMAGE_RESPONSE_BYTES } from "../adapters/guarded-fetch";
import { checkBaseUrl } from "../base-url-policy";
import { isProviderError, ProviderError } from "../provider-error";
import { ImageProviderError } from "./image-provider-error";
import { imageJobProblem } from "./job-check";
import type { ImageAdapterOptions } from "./image-adapter-options";
import type { ImageGenerationRequest } from "./types";

/** How long an image call may take when the request names no timeout: generous, image models are slow. */
export const DEFAULT_IMAGE_TIMEOUT_MS = 180_000;

/**
 * Runs one call with a signal that ends on the caller's signal or after the request's timeout.
 * The timer is our own and cleared when the call ends: AbortSignal.any over AbortSignal.timeout
 * was seen here never to fire (Node 20 collects the timeout signal when nothing else holds it;
 * a 300 ms timeout waited 10 s in a test run), and a pending timer would keep a finished CLI
 * alive for the whole timeout.
 */
export async function withCallSignal<T>(
  request: Pick<ImageGenerationRequest, "signal" | "timeoutMs" | "model">,
  label: string,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const timeoutMs = request.timeoutMs ?? DEFAULT_IMAGE_TIMEOUT_MS;
  const timer = setTimeout(
    () => controller.abort(new DOMException(`The call took longer than ${timeoutMs} ms.`, "TimeoutError")),
    timeoutMs,
  );
  const forward = () => controller.abort(request.signal.reason);
  if (request.signal.aborted) forward();
  else request.signal.addEventListener("abort", forward, { once: true });
  try {
    return await work(controller.signal);
  } catch (error) {
    // Our timer, not the caller, ended it: say how long it was given rather than "aborted".
    if (isProviderError(error) && error.code === "timeout" && !request.signal.aborted && controller.signal.aborted) {
      throw new ProviderError({
        code: "timeout",
        message: `${label} (${request.model}) did not finish within ${formatSeconds(timeoutMs)}, the call's timeout.`,
        cause: error,
      });
    }
    throw error;
  } finally {
    clearTimeout(timer);
    request.signal.removeEventListener("abort", forward);
  }
}

/** Throws option_rejected, before any request, for a job the provider is known not to make (see imageJobProblem). */
export function refuseWhatCannotBeMade(provider: string, request: ImageGenerationRequest): void {
  const problem = imageJobProblem(provider, request);
  if (problem) throw new ImageProviderError({ kind: "option_rejected", message: problem });
}

/** The fetch an image adapter sends with: capped at the image answer limit, no redirects, private hosts as allowed. */
export function imageFetch(options: ImageAdapterOptions, label: string, maxBytes = MAX_IMAGE_RESPONSE_BYTES): typeof fetch {
  return createGuardedFetch({
    label,
    fetch: options.fetch,
    maxBytes,
    allowPrivateAddresses: options.allowPrivateAddresses,
    resolveHost: options.resolveHost,
  });
}

/**
 * Sends one request and returns the parsed JSON body of a 2xx answer. A non-2xx answer becomes
 * the ProviderError its status and body mean; when `isContentPolicy` recognises the body it is a
 * content_policy refusal, and any other 400 or 422 is the vendor refusing an option, with its
 * own words (never a crash, never a retry).
 */
export async function sendImageRequest(input: {
  url: string;
  method?: "GET" | "POST";
  body?: unknown;
  headers?: Record<string, string>;
  fetch: typeof fetch;
  signal: AbortSignal;
  context: ErrorContext;
  isContentPolicy?: (body: unknown) => boolean;
}): Promise<{ body: unknown; status: number; headers: Headers }> {
  let response: Response;
  let text: string;
  try {
    response = await input.fetch(input.url, {
      method: input.method ?? "GET",
      headers: {
        accept: "application/json",
        ...(input.body === undefined ? {} : { "content-type": "application/json" }),
        ...input.headers,
      },
      body: input.body === undefined ? undefined : JSON.stringify(input.body),
      signal: input.signal,
    });
    text = await response.text();
  } catch (error) {
    rethrowAsProviderError(error, input.context);
  }
  const body = parseOrText(text);
  if (!response.ok) {
    const failure = classifyHttpFailure({
      status: response.status,
      body,
      headers: Object.fromEntries(response.headers.entries()),
      context: input.context,
    });
    if (input.isContentPolicy?.(body)) {
      throw new ImageProviderError({
        kind: "content_policy",
        statusCode: response.status,
        message: `${input.context.provider} refused the prompt under its content policy${detailOf(failure.message)}`,
      });
    }
    if (failure.code === "bad_request" && !failure.retryable) {
      throw new ImageProviderError({ kind: "option_rejected", statusCode: response.status, message: failure.message });
    }
    throw failure;
  }
  if (typeof body === "string") throw malformed(input.context, `an answer that is not JSON (status ${response.status})`);
  return { body, status: response.status, headers: response.headers };
}

/** A 2xx answer we cannot use: no images, not JSON, a field of the wrong type. */
export function malformed(context: Pick<ErrorContext, "provider">, what: string, cause?: unknown): ImageProviderError {
  return new ImageProviderError({ kind: "malformed", message: `${context.provider} sent ${what}.`, cause });
}

/**
 * Checks a URL the vendor handed back (a polling or a download address) against the base URL
 * policy before anything is sent to it: http(s) only, no credentials in it, and a private or
 * loopback host only where this server may call its own network. The guarded fetch then also
 * refuses a name that resolves to such an address.
 */
export function checkVendorUrl(text: unknown, options: { label: string; what: string; allowPrivate: boolean }): URL {
  if (typeof text !== "string" || text === "") throw malformed({ provider: options.label }, `no ${options.what}`);
  const verdict = checkBaseUrl(text, { allowPrivate: options.allowPrivate });
  if (!verdict.ok) {
    throw new ProviderError({
      code: "bad_request",
      retryable: false,
      message: `${options.label} returned a ${options.what} that is refused: ${verdict.message}`,
    });
  }
  return new URL(text);
}

/** Bytes of a strict base64 text (the standard alphabet, padding optional, whitespace ignored), or null. */
export function decodeBase64(text: unknown): Uint8Array | null {
  if (typeof text !== "string") return null;
  const compact = text.replace(/\s+/g, "");
  if (compact === "" || !/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) return null;
  return new Uint8Array(Buffer.from(compact, "base64"));
}

/** A URL without its query string and fragment, for receipts (signed URLs carry their signature there). */
export function withoutQuery(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return "";
  }
}

/** The fields that are set: null and undefined mean "the vendor's default", so they are not sent. */
export function definedFields(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined && value !== null));
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}

function parseOrText(text: string): unknown {
  if (text.trim() === "") return "";
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function detailOf(message: string): string {
  const colon = message.indexOf(": ");
  return colon === -1 ? "." : `: ${message.slice(colon + 2)}`;
}
