import { ProviderError } from "../provider-error";
import { classifyHttpFailure, rethrowAsProviderError, type ErrorContext } from "./classify-error";

/** Metadata calls (model lists, context windows) have no run timeout around them: this is theirs. */
export const METADATA_TIMEOUT_MS = 30_000;

/**
 * Sends a request and returns the response once its status is 2xx; anything else becomes a
 * ProviderError. The body is left unread for the caller (a stream, or JSON via readJsonBody).
 */
export async function sendRequest(input: {
  url: string;
  method?: "GET" | "POST";
  body?: unknown;
  headers?: Record<string, string>;
  fetch?: typeof fetch;
  signal: AbortSignal;
  context: ErrorContext;
}): Promise<Response> {
  const send = input.fetch ?? globalThis.fetch;
  let response: Response;
  try {
    response = await send(input.url, {
      method: input.method ?? "GET",
      headers: {
        ...(input.body === undefined ? {} : { "content-type": "application/json" }),
        ...input.headers,
      },
      body: input.body === undefined ? undefined : JSON.stringify(input.body),
      signal: input.signal,
    });
  } catch (error) {
    rethrowAsProviderError(error, input.context);
  }
  if (!response.ok) {
    const text = await readText(response, input.context);
    throw classifyHttpFailure({
      status: response.status,
      body: parseOrText(text),
      headers: Object.fromEntries(response.headers.entries()),
      context: input.context,
    });
  }
  return response;
}

/** The response body as JSON; an empty or malformed body is the vendor's failure (server). */
export async function readJsonBody(response: Response, context: ErrorContext): Promise<unknown> {
  const text = await readText(response, context);
  try {
    if (text.trim() === "") throw new SyntaxError("empty body");
    return JSON.parse(text);
  } catch (error) {
    throw new ProviderError({
      code: "server",
      statusCode: response.status,
      message: `${context.provider} sent an empty or malformed response (status ${response.status}).`,
      cause: error,
    });
  }
}

async function readText(response: Response, context: ErrorContext): Promise<string> {
  try {
    return await response.text();
  } catch (error) {
    rethrowAsProviderError(error, context);
  }
}

function parseOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
