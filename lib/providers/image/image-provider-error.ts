import { isProviderError, ProviderError, type ProviderErrorCode } from "../provider-error";

/**
 * What went wrong with an image call, in the words a batch job records. The first six are the
 * text side's ProviderErrorCodes; the last three are particular to image models and ride on a
 * ProviderError whose code the engine already understands (so its retry rules apply unchanged):
 *
 * - content_policy: the vendor refused the prompt or its own output on safety grounds (code
 *   bad_request, not retryable: the same prompt is refused again);
 * - malformed: a 2xx answer without usable images (code server, not retryable: the same request
 *   gets the same answer, and each try may be paid for);
 * - option_rejected: the vendor refused a parameter (an unknown provider_options key, a size it
 *   cannot make), with its own message (code bad_request).
 */
export type ImageErrorKind =
  "auth" | "rate_limited" | "server" | "timeout" | "network" | "model_not_found" | "content_policy" | "malformed" | "option_rejected";

type ImageOnlyKind = "content_policy" | "malformed" | "option_rejected";

const codeOf: Record<ImageOnlyKind, ProviderErrorCode> = {
  content_policy: "bad_request",
  malformed: "server",
  option_rejected: "bad_request",
};

/** A failed image call whose kind the text-side codes cannot say. */
export class ImageProviderError extends ProviderError {
  readonly kind: ImageOnlyKind;

  constructor(input: { kind: ImageOnlyKind; message: string; statusCode?: number | null; cause?: unknown }) {
    super({ code: codeOf[input.kind], message: input.message, retryable: false, statusCode: input.statusCode, cause: input.cause });
    this.kind = input.kind;
  }
}

/** The kind of a failed image call, for the job's record; null for an error that is not a provider's (our own bug). */
export function imageErrorKind(error: unknown): ImageErrorKind | null {
  if (!isProviderError(error)) return null;
  const kind = (error as { kind?: unknown }).kind;
  if (kind === "content_policy" || kind === "malformed" || kind === "option_rejected") return kind;
  switch (error.code) {
    case "auth":
    case "rate_limited":
    case "server":
    case "timeout":
    case "network":
    case "model_not_found":
      return error.code;
    // context_overflow is a text model's; an image prompt too long for the vendor is an option it refused.
    case "context_overflow":
    case "bad_request":
      return "option_rejected";
  }
}
