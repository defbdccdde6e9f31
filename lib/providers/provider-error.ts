/** Why a provider call failed, in words the engine and the person can act on. */
export type ProviderErrorCode =
  "auth" | "model_not_found" | "rate_limited" | "timeout" | "context_overflow" | "server" | "network" | "bad_request";

// Next.js bundles route handlers and instrumentation separately, so one process can hold two
// copies of this class and `instanceof` fails between them (a provider built by the server's
// context, checked by a route). A registry-wide symbol marks every copy's instances.
const brand = Symbol.for("parallaxr.ProviderError");

/** A failed provider call. Retry decisions read retryable and retryAfterMs, never the message. */
export class ProviderError extends Error {
  readonly [brand] = true;
  readonly code: ProviderErrorCode;
  readonly retryable: boolean;
  readonly statusCode: number | null;
  /** From the Retry-After header, when the provider sent one. */
  readonly retryAfterMs: number | null;

  constructor(input: {
    code: ProviderErrorCode;
    message: string;
    retryable?: boolean;
    statusCode?: number | null;
    retryAfterMs?: number | null;
    cause?: unknown;
  }) {
    super(input.message, { cause: input.cause });
    this.name = "ProviderError";
    this.code = input.code;
    this.retryable = input.retryable ?? defaultRetryable[input.code];
    this.statusCode = input.statusCode ?? null;
    this.retryAfterMs = input.retryAfterMs ?? null;
  }
}

const defaultRetryable: Record<ProviderErrorCode, boolean> = {
  auth: false,
  model_not_found: false,
  rate_limited: true,
  timeout: true,
  context_overflow: false,
  server: true,
  network: true,
  bad_request: false,
};

/** True when error is a ProviderError (from any bundle); anything else is our own bug and must stay loud. */
export function isProviderError(error: unknown): error is ProviderError {
  return (
    error instanceof ProviderError || (typeof error === "object" && error !== null && (error as { [brand]?: boolean })[brand] === true)
  );
}
