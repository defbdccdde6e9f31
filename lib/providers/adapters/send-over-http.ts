import http from "node:http";
import https from "node:https";
import { Readable } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";

// The transport of every adapter's calls (createGuardedFetch, when no fetch is given). Node's fetch
// costs ~0.8 ms of the server's main thread a call on the 2-core machines this is measured on, and
// the production server's global fetch is also wrapped by Next.js for tracing; node:http costs
// ~0.35 ms (bench/README.md, "Provider calls over node:http"). At 64 calls at once that is the
// difference between a main thread that keeps up and one that delays the answers it is waiting for.
//
// It keeps what the adapters rely on from fetch: a Response (headers, status, text(), a body
// stream), gzip/deflate/br undone, redirects never followed (the 3xx is the answer), an abort
// rejecting with the signal's reason, and a connection failure rejecting with a TypeError whose
// cause carries the system's code (what classify-error.ts reads). What it adds is the cap: a
// successful answer past okBytes fails while it is read, an error answer is cut at errorBytes.

/**
 * How long a connection may wait unused for the next call before it is closed (undici's default,
 * which fetch used). Without it Node keeps idle connections for good and ignores a server's
 * `Keep-Alive: timeout` hint, and a server that closed one meanwhile fails the call that reuses it
 * (ECONNRESET). The timeout only closes idle connections: a call waiting longer for its answer
 * is not cut (tests/providers/send-over-http.test.ts).
 */
export const IDLE_CONNECTION_MS = 4_000;

/**
 * fetch's backstops (undici's defaults), for a call whose signal never aborts it: how long a
 * connection may take to open, how long the answer's headers may take once the request is out,
 * and how long its body may pause between two chunks (while the reader wants more). Past one, the
 * call fails as fetch failed it (the codes classify-error.ts reads as timeouts). The calls of a run
 * carry the run's own timeout as their signal, which is shorter; these bound the rest.
 */
export interface Backstops {
  connectMs: number;
  headersMs: number;
  bodyMs: number;
}

export const FETCH_BACKSTOPS: Backstops = { connectMs: 10_000, headersMs: 300_000, bodyMs: 300_000 };

const agentOptions = { keepAlive: true, timeout: IDLE_CONNECTION_MS };
const keepAlive = { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) };

/** The caps of one request's answer (see guarded-fetch.ts). */
export interface AnswerCaps {
  /** Most bytes of a 2xx answer, counted after decoding; past it the body fails with tooLarge(). */
  okBytes: number;
  /** Most bytes of any other answer; the rest is dropped. */
  errorBytes: number;
  tooLarge: (status: number) => Error;
}

/**
 * Sends a request over node:http(s) with the caps applied, or returns null for what it does not
 * send itself (a Request object, a body other than text or bytes): the caller uses fetch then.
 */
export function sendOverHttp(
  input: string | URL | Request,
  init: RequestInit | undefined,
  caps: AnswerCaps,
  backstops: Backstops = FETCH_BACKSTOPS,
): Promise<Response> | null {
  if (typeof input !== "string" && !(input instanceof URL)) return null;
  const body = init?.body;
  if (body != null && typeof body !== "string" && !(body instanceof Uint8Array)) return null;
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;

  const headers: Record<string, string> = { accept: "*/*", "accept-encoding": "gzip, deflate, br" };
  for (const [name, value] of new Headers(init?.headers)) headers[name] = value;
  const bytes = body == null ? null : typeof body === "string" ? Buffer.from(body, "utf8") : body;
  if (bytes) headers["content-length"] = String(bytes.byteLength);
  const signal = init?.signal ?? null;

  return new Promise<Response>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const secure = url.protocol === "https:";
    const request = (secure ? https : http).request(url, {
      method: init?.method ?? "GET",
      headers,
      agent: secure ? keepAlive.https : keepAlive.http,
    });
    let settled = false;
    // One backstop at a time: connecting, then waiting for the headers, then each pause of a whole
    // answer's body (a stream's pauses are timed by cappedStream).
    let backstop: NodeJS.Timeout | undefined;
    const arm = (ms: number, error: () => Error) => {
      clearTimeout(backstop);
      if (settled) return;
      backstop = setTimeout(() => {
        fail(error());
        request.destroy();
      }, ms);
    };
    const disarm = () => clearTimeout(backstop);
    const fail = (error: unknown) => {
      disarm();
      if (settled) return;
      settled = true;
      signal?.removeEventListener("abort", onAbort);
      reject(error);
    };
    const onAbort = () => {
      fail(signal!.reason);
      request.destroy();
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    request.on("error", (error) => fail(new TypeError("fetch failed", { cause: error })));
    const awaitHeaders = () => arm(backstops.headersMs, () => fetchFailed("UND_ERR_HEADERS_TIMEOUT", "Headers Timeout Error"));
    request.on("socket", (socket) => {
      if (!socket.connecting) return awaitHeaders();
      arm(backstops.connectMs, () => fetchFailed("UND_ERR_CONNECT_TIMEOUT", "Connect Timeout Error"));
      socket.once("connect", awaitHeaders);
    });
    request.on("response", (answer) => {
      disarm();
      const status = answer.statusCode ?? 0;
      const ok = status >= 200 && status < 300;
      const responseHeaders = new Headers();
      for (let i = 0; i + 1 < answer.rawHeaders.length; i += 2) responseHeaders.append(answer.rawHeaders[i], answer.rawHeaders[i + 1]);
      const declared = Number(answer.headers["content-length"]);
      const nullBody = status === 204 || status === 205 || status === 304 || (status >= 300 && status < 400) || request.method === "HEAD";
      if (nullBody || (ok && Number.isFinite(declared) && declared > caps.okBytes)) {
        answer.destroy();
        if (!nullBody) return fail(caps.tooLarge(status));
        settled = true;
        signal?.removeEventListener("abort", onAbort);
        try {
          resolve(new Response(null, { status, statusText: answer.statusMessage, headers: responseHeaders }));
        } catch (error) {
          reject(new TypeError("fetch failed", { cause: error }));
        }
        return;
      }
      const decoded = decode(answer, responseHeaders);
      // Its bytes are no longer the ones these described.
      responseHeaders.delete("content-length");
      const limit = ok ? caps.okBytes : caps.errorBytes;
      const answerInit = { status, statusText: answer.statusMessage, headers: responseHeaders };
      if (ok && !isJson(responseHeaders.get("content-type"))) {
        // A stream (server-sent events, NDJSON): handed over as it arrives.
        settled = true;
        try {
          resolve(
            new Response(
              cappedStream(decoded, limit, () => caps.tooLarge(status), signal, onAbort, backstops.bodyMs),
              answerInit,
            ),
          );
        } catch (error) {
          answer.destroy();
          reject(new TypeError("fetch failed", { cause: error }));
        }
        return;
      }
      // A whole answer (JSON, or an error): read here, then handed over at once.
      const chunks: Buffer[] = [];
      let seen = 0;
      const awaitChunk = () => arm(backstops.bodyMs, bodyTimedOut);
      awaitChunk();
      const finish = () => {
        disarm();
        if (settled) return;
        settled = true;
        signal?.removeEventListener("abort", onAbort);
        try {
          resolve(new Response(Buffer.concat(chunks), answerInit));
        } catch (error) {
          // a status a Response cannot have (past 599)
          reject(new TypeError("fetch failed", { cause: error }));
        }
      };
      decoded.on("data", (chunk: Buffer) => {
        if (settled) return;
        awaitChunk();
        seen += chunk.byteLength;
        if (seen <= limit) {
          chunks.push(chunk);
          return;
        }
        if (ok) {
          fail(caps.tooLarge(status));
        } else {
          const keep = chunk.byteLength - (seen - limit);
          if (keep > 0) chunks.push(chunk.subarray(0, keep));
          finish();
        }
        answer.destroy();
        decoded.destroy();
      });
      decoded.on("end", finish);
      decoded.on("error", (error) => fail(new TypeError("terminated", { cause: error })));
      answer.on("error", (error) => fail(new TypeError("terminated", { cause: error })));
    });
    request.end(bytes ?? undefined);
  });
}

/** What fetch rejects with when a backstop ends a call before its answer: a cause with undici's code. */
function fetchFailed(code: string, message: string): TypeError {
  return new TypeError("fetch failed", { cause: Object.assign(new Error(message), { code }) });
}

/** What reading an answer fails with when its body paused past the backstop, as with fetch. */
function bodyTimedOut(): TypeError {
  return new TypeError("terminated", { cause: Object.assign(new Error("Body Timeout Error"), { code: "UND_ERR_BODY_TIMEOUT" }) });
}

function isJson(contentType: string | null): boolean {
  if (!contentType) return false;
  const type = contentType.split(";")[0].trim().toLowerCase();
  return type === "application/json" || type.endsWith("+json");
}

/** The answer with its content-encoding undone (fetch's codings); an unknown coding is left as sent. */
function decode(answer: http.IncomingMessage, headers: Headers): Readable {
  const codings = (headers.get("content-encoding") ?? "")
    .split(",")
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== "" && coding !== "identity");
  if (codings.length === 0) return answer;
  const decoders = codings.reverse().map((coding) => {
    if (coding === "gzip" || coding === "x-gzip") return createGunzip();
    if (coding === "deflate") return createInflate();
    if (coding === "br") return createBrotliDecompress();
    return null;
  });
  if (decoders.some((decoder) => decoder === null)) return answer;
  headers.delete("content-encoding");
  let stream: Readable = answer;
  for (const decoder of decoders) {
    const from = stream;
    stream = from.pipe(decoder!);
    from.on("error", (error) => decoder!.destroy(error));
  }
  return stream;
}

/**
 * The answer as a web stream that fails once more than `limit` bytes came, the signal aborts, or
 * the source pauses for bodyMs while the reader waits for more (not while the reader has all it
 * asked for).
 */
function cappedStream(
  source: Readable,
  limit: number,
  tooLarge: () => Error,
  signal: AbortSignal | null,
  onRequestAbort: () => void,
  bodyMs: number,
): ReadableStream<Uint8Array> {
  let seen = 0;
  let over = false;
  let backstop: NodeJS.Timeout | undefined;
  let end: (error?: unknown) => void = () => {};
  const disarm = () => clearTimeout(backstop);
  const awaitChunk = () => {
    clearTimeout(backstop);
    backstop = setTimeout(() => end(bodyTimedOut()), bodyMs);
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      signal?.removeEventListener("abort", onRequestAbort);
      awaitChunk();
      end = (error?: unknown) => {
        if (over) return;
        over = true;
        disarm();
        signal?.removeEventListener("abort", onAbort);
        if (error === undefined) controller.close();
        else controller.error(error);
        if (error !== undefined) source.destroy();
      };
      const onAbort = () => end(signal!.reason);
      signal?.addEventListener("abort", onAbort, { once: true });
      source.on("data", (chunk: Buffer) => {
        if (over) return;
        seen += chunk.byteLength;
        if (seen > limit) return end(tooLarge());
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 1) <= 0) {
          source.pause();
          disarm();
        } else {
          awaitChunk();
        }
      });
      source.on("end", () => end());
      source.on("error", (error) => end(new TypeError("terminated", { cause: error })));
    },
    pull() {
      if (over) return;
      if (source.isPaused()) awaitChunk();
      source.resume();
    },
    cancel() {
      over = true;
      disarm();
      source.destroy();
    },
  });
}
