import { inspect } from "node:util";
import { APICallError, EmptyResponseBodyError, InvalidResponseDataError, JSONParseError, TypeValidationError } from "ai";
import { parseRetryAfter } from "@/lib/core/backoff";
import { isProviderError, ProviderError } from "../provider-error";
import { describeKey, redactKey } from "./key-hint";

/** Error codes a vendor puts in its error body (error.code, error.type, error.status, details[].reason). */
export interface VendorErrorCodes {
  auth?: readonly string[];
  modelNotFound?: readonly string[];
  contextOverflow?: readonly string[];
  rateLimited?: readonly string[];
  /** Out of quota or credit: the vendor says 429, but waiting will not help. */
  quotaExhausted?: readonly string[];
  server?: readonly string[];
}

/** What the classifier needs to word an error for the person who has to act on it. */
export interface ErrorContext {
  /** The vendor as people know it: "OpenAI", "Anthropic". */
  provider: string;
  model: string;
  apiKey: string | null;
  /** The request's signal: an abort it caused is a timeout. */
  signal?: AbortSignal | null;
  codes?: VendorErrorCodes;
  now?: () => Date;
}

/** Throws the ProviderError a failure means, or the error itself when it is not a provider failure. */
export function rethrowAsProviderError(error: unknown, context: ErrorContext): never {
  throw classifyProviderError(error, context) ?? error;
}

/**
 * The ProviderError a failed call means, or null when the error is not one a provider call makes:
 * those are our own bugs and must stay loud. Decisions read status codes, headers and the codes in
 * the vendor's error body, never its message text.
 */
export function classifyProviderError(error: unknown, context: ErrorContext): ProviderError | null {
  // Ours, possibly wrapped: the AI SDK wraps what a body reader threw (the response cap) in an
  // APICallError "Failed to process successful response".
  const ours = findProviderError(error);
  if (ours) return ours;
  if (isAbortError(error) || (context.signal?.aborted && error === context.signal.reason)) {
    return new ProviderError({
      code: "timeout",
      message: `The call to ${context.provider} (${context.model}) was aborted before it answered.`,
      cause: withoutKey(error, context.apiKey),
    });
  }
  // A connection that fails or breaks, whoever noticed it (fetch, the SDK, a half-read stream).
  const networkCode = findNetworkCode(error);
  if (networkCode) {
    const timedOut = timeoutNetworkCodes.has(networkCode);
    return new ProviderError({
      code: timedOut ? "timeout" : "network",
      message: timedOut
        ? `${context.provider} did not answer in time (${networkCode}).`
        : `Could not reach ${context.provider} (${networkCode}): check the base URL and that the server is running.`,
      cause: withoutKey(error, context.apiKey),
    });
  }
  // Node's fetch rejects with a TypeError whose cause is why it could not connect, also when the
  // cause has no code (a port fetch refuses to use, such as 9 or 6000): still a connection failure.
  if (error instanceof TypeError && error.cause instanceof Error) {
    return new ProviderError({
      code: "network",
      message: `Could not reach ${context.provider} (${error.cause.message}): check the base URL and that the server is running.`,
      cause: withoutKey(error, context.apiKey),
    });
  }
  if (APICallError.isInstance(error)) return classifyApiCallError(error, context);
  if (
    JSONParseError.isInstance(error) ||
    TypeValidationError.isInstance(error) ||
    EmptyResponseBodyError.isInstance(error) ||
    InvalidResponseDataError.isInstance(error)
  ) {
    return malformedResponse(context, null, error);
  }
  if (isVendorErrorObject(error)) return classifyStreamedError(error, context);
  return null;
}

function classifyApiCallError(error: APICallError, context: ErrorContext): ProviderError {
  const status = error.statusCode;
  if (status === undefined) {
    // The SDK only makes a status-less APICallError when it could not connect.
    return new ProviderError({
      code: "network",
      message: `Could not reach ${context.provider}: check the base URL and that the server is running.`,
      cause: withoutKey(error, context.apiKey),
    });
  }
  if (status >= 200 && status < 300) return malformedResponse(context, status, error);
  const body = parseBody(error.data, error.responseBody);
  return classifyHttpFailure({
    status,
    body,
    headers: error.responseHeaders ?? {},
    context,
    cause: error,
  });
}

/** Classifies a non-2xx answer from its status, headers and body. Also used by fetch-based adapters. */
export function classifyHttpFailure(input: {
  status: number;
  body: unknown;
  headers: Record<string, string>;
  context: ErrorContext;
  cause?: unknown;
}): ProviderError {
  const { status, body, headers, context } = input;
  const codes = vendorCodes(body);
  const has = (list: readonly string[] | undefined) => (list ?? []).some((code) => codes.has(code));
  const detail = vendorMessage(body, context.apiKey);
  const suffix = detail ? `: ${detail}` : "";
  const base = { statusCode: status, cause: withoutKey(input.cause, context.apiKey) };

  if (status === 401 || status === 403 || has(context.codes?.auth)) {
    // The vendor's own words are kept only for 403 (which permission is missing). For 401 some
    // echo a masked key showing more than its last four characters ("sk-proj-****7f3a").
    const why = status === 403 && detail ? ` (${detail})` : "";
    return new ProviderError({
      ...base,
      code: "auth",
      message:
        context.apiKey === null || context.apiKey === ""
          ? `${context.provider} needs an API key${why}: add one in Settings -> Keys`
          : `${context.provider} rejected ${describeKey(context.apiKey)}${why}: check Settings -> Keys`,
    });
  }
  if (has(context.codes?.quotaExhausted)) {
    return new ProviderError({
      ...base,
      code: "rate_limited",
      retryable: false,
      message: `${context.provider} says the account's quota or credit is used up: check its billing${suffix}`,
    });
  }
  if (has(context.codes?.contextOverflow)) {
    return new ProviderError({
      ...base,
      code: "context_overflow",
      message: `The prompt is longer than ${context.model}'s context window at ${context.provider}${suffix}`,
    });
  }
  if (status === 404 || has(context.codes?.modelNotFound)) {
    return new ProviderError({
      ...base,
      code: "model_not_found",
      message: `Model ${context.model} not found or unavailable at ${context.provider}${suffix}`,
    });
  }
  const retryAfterMs = readRetryAfter(headers, body, context.now?.() ?? new Date());
  if (status === 429 || has(context.codes?.rateLimited)) {
    const wait = retryAfterMs === null ? "" : ` (retry after ${formatSeconds(retryAfterMs)})`;
    return new ProviderError({
      ...base,
      code: "rate_limited",
      retryAfterMs,
      message: `${context.provider} is rate limiting this key${wait}${suffix}`,
    });
  }
  if (status === 408) {
    return new ProviderError({ ...base, code: "timeout", message: `${context.provider} timed out the request (408)${suffix}` });
  }
  if (status >= 500 || has(context.codes?.server)) {
    return new ProviderError({
      ...base,
      code: "server",
      retryAfterMs,
      message: `${context.provider} had a server error (${status})${suffix}`,
    });
  }
  if (status >= 400) {
    return new ProviderError({
      ...base,
      code: "bad_request",
      // 409 is a conflict of the moment (vercel/ai's APICallError retries it too).
      retryable: status === 409,
      message: `${context.provider} refused the request (${status})${suffix}`,
    });
  }
  return new ProviderError({ ...base, code: "server", message: `${context.provider} answered with status ${status}${suffix}` });
}

/** An error a vendor sent inside a stream that had already begun (an SSE `error` event or chunk). */
function classifyStreamedError(error: Record<string, unknown>, context: ErrorContext): ProviderError {
  // OpenRouter puts the HTTP status it would have sent in `code`.
  const numericCode = typeof error.code === "number" ? error.code : null;
  if (numericCode !== null && numericCode >= 400 && numericCode < 600) {
    return classifyHttpFailure({ status: numericCode, body: { error }, headers: {}, context, cause: error });
  }
  const codes = vendorCodes({ error });
  const has = (list: readonly string[] | undefined) => (list ?? []).some((code) => codes.has(code));
  // The stream's status was 200; these stand in for the status the vendor's code means.
  const status = has(context.codes?.auth)
    ? 401
    : has(context.codes?.rateLimited)
      ? 429
      : has(context.codes?.contextOverflow) || has(context.codes?.modelNotFound)
        ? 400
        : null;
  if (status !== null) {
    const classified = classifyHttpFailure({ status, body: { error }, headers: {}, context, cause: error });
    return new ProviderError({
      code: classified.code,
      message: classified.message,
      retryAfterMs: classified.retryAfterMs,
      cause: classified.cause,
    });
  }
  // Anything else the vendor broke off an answer for is its failure, and worth a retry.
  const detail = vendorMessage({ error }, context.apiKey);
  return new ProviderError({
    code: "server",
    message: `${context.provider} reported an error during the answer${detail ? `: ${detail}` : "."}`,
    cause: withoutKey(error, context.apiKey),
  });
}

/**
 * The cause to keep on a ProviderError. A vendor that echoed the key into its response body or
 * message would carry it into every log of the error, so such a cause is replaced by a redacted
 * summary.
 */
function withoutKey(cause: unknown, apiKey: string | null): unknown {
  const key = apiKey?.trim();
  if (!key || cause === undefined) return cause;
  if (!inspect(cause, { depth: 8 }).includes(key)) return cause;
  const message =
    cause instanceof Error ? cause.message : typeof cause === "object" && cause !== null ? JSON.stringify(cause) : String(cause);
  return new Error(`${redactKey(message, key)} (the vendor's full response was dropped: it contained the API key)`);
}

function malformedResponse(context: ErrorContext, status: number | null, cause: unknown): ProviderError {
  return new ProviderError({
    code: "server",
    statusCode: status,
    message: `${context.provider} sent an empty or malformed response${status === null ? "" : ` (status ${status})`}.`,
    cause: withoutKey(cause, context.apiKey),
  });
}

const networkCodes = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EPIPE",
  "ETIMEDOUT",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
]);
const timeoutNetworkCodes = new Set(["ETIMEDOUT", "UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

function findNetworkCode(error: unknown): string | null {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current instanceof Error && !seen.has(current)) {
    seen.add(current);
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && networkCodes.has(code)) return code;
    current = current.cause;
  }
  return null;
}

function findProviderError(error: unknown): ProviderError | null {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (typeof current === "object" && current !== null && !seen.has(current)) {
    if (isProviderError(current)) return current;
    seen.add(current);
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

function isAbortError(error: unknown): boolean {
  return (
    (error instanceof Error || error instanceof DOMException) &&
    (error.name === "AbortError" || error.name === "TimeoutError" || error.name === "ResponseAborted")
  );
}

function isVendorErrorObject(error: unknown): error is Record<string, unknown> {
  return (
    typeof error === "object" && error !== null && !(error instanceof Error) && typeof (error as { message?: unknown }).message === "string"
  );
}

function parseBody(data: unknown, responseBody: string | undefined): unknown {
  if (responseBody !== undefined && responseBody !== "") {
    try {
      return JSON.parse(responseBody);
    } catch {
      return responseBody;
    }
  }
  return data ?? null;
}

/** Every code-like string in an error body, from the shapes OpenAI, Anthropic, Google and friends use. */
function vendorCodes(body: unknown): Set<string> {
  const codes = new Set<string>();
  const add = (value: unknown) => {
    if (typeof value === "string" && value !== "") codes.add(value);
  };
  if (!isRecord(body)) return codes;
  add(body.code);
  add(body.type);
  const error = body.error;
  if (isRecord(error)) {
    add(error.code);
    add(error.type);
    add(error.status);
    if (Array.isArray(error.details)) {
      for (const detail of error.details) if (isRecord(detail)) add(detail.reason);
    }
  }
  return codes;
}

// A vendor's explanation is a sentence or two; the cap also bounds what a base URL that is not a
// vendor at all could have us show of its answer.
const MAX_DETAIL_LENGTH = 300;

/**
 * The vendor's own explanation, without the key, short enough for a cell. Only the message field
 * of a JSON error body is read: a body that is not JSON (an HTML page, a proxy's text) is never
 * shown, nor a message that is markup, because the address that answered may not be the vendor
 * (a base URL can name any server) and its pages are not for the person to read through us.
 */
function vendorMessage(body: unknown, apiKey: string | null): string | null {
  let message: unknown = null;
  if (isRecord(body)) {
    const error = body.error;
    if (typeof error === "string") message = error;
    else if (isRecord(error) && typeof error.message === "string") message = error.message;
    else if (typeof body.message === "string") message = body.message;
    else if (typeof body.detail === "string") message = body.detail;
  }
  if (typeof message !== "string") return null;
  const clean = redactKey(message, apiKey).replace(/\s+/g, " ").trim();
  if (clean === "" || looksLikeMarkup(clean)) return null;
  return clean.length > MAX_DETAIL_LENGTH ? `${clean.slice(0, MAX_DETAIL_LENGTH)}…` : clean;
}

function looksLikeMarkup(text: string): boolean {
  return /<\/?[a-z!][^>]*>/i.test(text);
}

/** Retry-After: `retry-after-ms` (OpenAI), `retry-after`, or Google's RetryInfo in the body. */
function readRetryAfter(headers: Record<string, string>, body: unknown, now: Date): number | null {
  const lower = Object.fromEntries(Object.entries(headers).map(([key, value]) => [key.toLowerCase(), value]));
  const milliseconds = Number(lower["retry-after-ms"]);
  if (lower["retry-after-ms"] !== undefined && Number.isFinite(milliseconds) && milliseconds >= 0) {
    return Math.round(milliseconds);
  }
  const fromHeader = parseRetryAfter(lower["retry-after"], now);
  if (fromHeader !== null) return fromHeader;
  const error = isRecord(body) ? body.error : null;
  if (isRecord(error) && Array.isArray(error.details)) {
    for (const detail of error.details) {
      if (isRecord(detail) && typeof detail.retryDelay === "string") {
        const match = /^(\d+(?:\.\d+)?)s$/.exec(detail.retryDelay);
        if (match) return Math.round(Number(match[1]) * 1000);
      }
    }
  }
  return null;
}

function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
