import { ZodError } from "zod";
import {
  ActiveRunError,
  InvalidInputError,
  NotFoundError,
  QueuedCellsLimitError,
  RunActionError,
  TooLargeError,
  ValidationError,
} from "@/lib/engine/errors";
import { UnauthorizedError } from "@/lib/auth/errors";
import { isFolderInUseError } from "@/lib/db/errors";

/** The error codes the API answers with, each with its HTTP status. */
export const httpErrors = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  misdirected_request: 421,
  too_many_requests: 429,
  internal: 500,
  service_unavailable: 503,
} as const;

/** An error code of the API. */
export type HttpErrorCode = keyof typeof httpErrors;

/** The JSON body of every error answer; runId names the run a 409 on starting a run is about. */
export interface ErrorBody {
  error: { code: HttpErrorCode; message: string; field?: string; runId?: string };
}

/** A request that is wrong in a way the handler found itself. */
export class HttpError extends Error {
  constructor(
    readonly code: HttpErrorCode,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = "HttpError";
  }
}

/** Maps anything a handler threw to one error answer; unknown errors are logged and hidden. */
export function errorResponse(error: unknown): Response {
  const body = toErrorBody(error);
  if (body.error.code === "internal") console.error("[parallaxr api]", error);
  return Response.json(body, { status: httpErrors[body.error.code] });
}

function toErrorBody(error: unknown): ErrorBody {
  if (error instanceof HttpError) return { error: { code: error.code, message: error.message, field: error.field } };
  if (error instanceof ZodError) {
    const issue = error.issues[0];
    const field = issue.path.join(".");
    return { error: { code: "bad_request", message: field ? `${field}: ${issue.message}` : issue.message, field: field || undefined } };
  }
  if (error instanceof ValidationError)
    return { error: { code: "bad_request", message: `${error.field}: ${error.message}`, field: error.field } };
  if (error instanceof InvalidInputError) return { error: { code: "bad_request", message: error.message, field: error.field } };
  if (error instanceof UnauthorizedError) return { error: { code: "unauthorized", message: error.message } };
  // the request itself fits: it will be taken once the user's queue drains
  if (error instanceof QueuedCellsLimitError) return { error: { code: "too_many_requests", message: error.message, field: error.field } };
  if (error instanceof TooLargeError) return { error: { code: "payload_too_large", message: error.message, field: error.field } };
  if (error instanceof NotFoundError) return { error: { code: "not_found", message: error.message, field: error.field } };
  if (error instanceof RunActionError) return { error: { code: "conflict", message: error.message } };
  if (error instanceof ActiveRunError) return { error: { code: "conflict", message: error.message, runId: error.runId } };
  if (isFolderInUseError(error)) {
    return {
      error: {
        code: "service_unavailable",
        message: `The data folder is in use by process ${error.holder.pid} (a parallaxr command, or another server). This server opens it as soon as that process ends: try again then.`,
      },
    };
  }
  return { error: { code: "internal", message: "Internal server error. The server log has the details." } };
}
