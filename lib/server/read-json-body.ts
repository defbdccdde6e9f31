import { describeBytes, type BodyLimit } from "./body-limits.mjs";
import { HttpError } from "./http-errors";
import { jsonDepthExceeds } from "@/lib/core/json-depth-exceeds";

/**
 * The deepest JSON body any route takes: a run's model params are 10 levels at most, inside the
 * body, the models array and the model (14 in all); 32 leaves room and stops a stack overflow.
 */
export const MAX_BODY_DEPTH = 32;

/** The error of a body over its route's limit, naming the limit, the route and the setting. */
export function tooLargeError(limit: BodyLimit): HttpError {
  return new HttpError(
    "payload_too_large",
    `The request body is larger than ${describeBytes(limit.bytes)}, the limit of ${limit.route}. Send less (a dataset in several uploads), or raise ${limit.setting} on the server.`,
  );
}

/**
 * Reads a request's JSON body, counting bytes as they arrive and stopping at the limit: a
 * Content-Length over it is refused before reading, and a body without one (chunked) or longer
 * than it says is cut off at limit + 1 bytes. Invalid UTF-8, invalid JSON and nesting deeper
 * than MAX_BODY_DEPTH are 400s.
 */
export async function readJsonBody(request: Request, limit: BodyLimit): Promise<unknown> {
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > limit.bytes) throw tooLargeError(limit);
  if (!request.body) throw new HttpError("bad_request", "The request has no body: send a JSON object with Content-Type: application/json.");

  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit.bytes) {
      await reader.cancel().catch(() => {});
      throw tooLargeError(limit);
    }
    chunks.push(value);
  }

  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks, total));
  } catch {
    throw new HttpError("bad_request", "The request body is not valid UTF-8: send JSON encoded as UTF-8.");
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new HttpError("bad_request", "The request body is not valid JSON.");
  }
  if (jsonDepthExceeds(json, MAX_BODY_DEPTH)) {
    throw new HttpError(
      "bad_request",
      `The request body nests deeper than ${MAX_BODY_DEPTH} levels of objects and arrays; no route takes that.`,
    );
  }
  return json;
}
