import { readFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { inspect } from "node:util";
import { ProviderError } from "@/lib/providers/provider-error";
import type { TextGenerateRequest } from "@/lib/providers/types";

/** One request the vendor server received, as the adapter sent it. */
export interface RecordedRequest {
  method: string;
  /** The path without the query string, e.g. `/v1/chat/completions`. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** The body parsed as JSON, or null when it was empty or not JSON. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a vendor's JSON, read by each test as that vendor's shape
  body: any;
  rawBody: string;
}

/** A scripted answer: a whole body, a stream of chunks, a dropped connection, or no answer at all. */
export type VendorResponse =
  | {
      status?: number;
      headers?: Record<string, string>;
      /** A string is sent as is (so malformed JSON stays malformed); anything else as JSON. */
      body?: unknown;
      /** Wait this long before answering (the adapter's signal may abort first). */
      delayMs?: number;
    }
  | {
      status?: number;
      headers?: Record<string, string>;
      /** Written one by one, each exactly as given: the caller owns the framing. */
      chunks: string[];
      chunkDelayMs?: number;
      delayMs?: number;
      /** Destroy the socket after the chunks instead of ending the response cleanly. */
      dropAfterChunks?: boolean;
    }
  | {
      status?: number;
      headers?: Record<string, string>;
      /**
       * Written again and again, as fast as the client reads (backpressure honoured), until the
       * client hangs up or `limitBytes` are sent: an answer that never ends, or one of any size
       * without holding it in memory. `head` is sent once first, `tail` once after the limit.
       */
      repeat: string;
      head?: string;
      tail?: string;
      limitBytes?: number;
      delayMs?: number;
    }
  | { drop: true }
  | { hang: true };

type Responder = VendorResponse | ((request: RecordedRequest) => VendorResponse);

/** A local HTTP server that speaks whatever wire format each test scripts. */
export interface VendorServer {
  /** `http://127.0.0.1:<port>` plus the prefix given at start, e.g. `/v1`. */
  baseURL: string;
  /** `http://127.0.0.1:<port>` with no prefix. */
  origin: string;
  requests: RecordedRequest[];
  /** Body bytes written to clients since the last reset (what a client received at most). */
  readonly bytesSent: number;
  /** Answers for the next requests, in order, whatever their path. */
  enqueue(...responses: Responder[]): void;
  /** A standing answer for one `METHOD /path`, used before the queue. */
  route(methodAndPath: string, response: Responder): void;
  /** Forgets requests, queue and routes between tests. */
  reset(): void;
  close(): Promise<void>;
}

/** Starts a vendor server on 127.0.0.1 with a free port. */
export async function startVendorServer(options: { prefix?: string } = {}): Promise<VendorServer> {
  const requests: RecordedRequest[] = [];
  let queue: Responder[] = [];
  const routes = new Map<string, Responder>();
  const counter = { bytes: 0 };

  const server = createServer((incoming, outgoing) => {
    const parts: Buffer[] = [];
    incoming.on("data", (part: Buffer) => parts.push(part));
    incoming.on("end", () => {
      const rawBody = Buffer.concat(parts).toString("utf8");
      const url = new URL(incoming.url ?? "/", "http://127.0.0.1");
      const recorded: RecordedRequest = {
        method: incoming.method ?? "GET",
        path: url.pathname,
        query: url.searchParams,
        headers: incoming.headers,
        body: parseJson(rawBody),
        rawBody,
      };
      requests.push(recorded);
      const responder = routes.get(`${recorded.method} ${recorded.path}`) ?? queue.shift();
      if (!responder) {
        outgoing.writeHead(501, { "content-type": "text/plain" });
        outgoing.end(`vendor-server: no scripted response for ${recorded.method} ${recorded.path}`);
        return;
      }
      const response = typeof responder === "function" ? responder(recorded) : responder;
      void answer(outgoing, response, counter);
    });
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  return {
    origin,
    baseURL: `${origin}${options.prefix ?? ""}`,
    requests,
    get bytesSent() {
      return counter.bytes;
    },
    enqueue: (...responses) => queue.push(...responses),
    route: (methodAndPath, response) => routes.set(methodAndPath, response),
    reset() {
      requests.length = 0;
      counter.bytes = 0;
      queue = [];
      routes.clear();
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        // Hanging and delayed answers hold their sockets open; end them so close() returns.
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

async function answer(outgoing: ServerResponse, response: VendorResponse, counter: { bytes: number }): Promise<void> {
  if ("hang" in response) return;
  if ("drop" in response) {
    outgoing.socket?.destroy();
    return;
  }
  if (response.delayMs) {
    await sleep(response.delayMs);
    if (outgoing.destroyed) return;
  }
  const status = response.status ?? 200;
  if ("repeat" in response) {
    outgoing.writeHead(status, { "content-type": "text/event-stream", ...response.headers });
    const send = async (text: string) => {
      counter.bytes += Buffer.byteLength(text);
      if (!outgoing.write(text))
        await new Promise<void>((resolve) => {
          // Resolves on drain, or when the client hangs up (then nothing drains).
          const done = () => {
            outgoing.off("drain", done);
            outgoing.off("close", done);
            resolve();
          };
          outgoing.on("drain", done);
          outgoing.on("close", done);
        });
    };
    if (response.head) await send(response.head);
    const limit = response.limitBytes ?? Number.POSITIVE_INFINITY;
    let sent = 0;
    while (!outgoing.destroyed && sent < limit) {
      await send(response.repeat);
      sent += Buffer.byteLength(response.repeat);
    }
    if (outgoing.destroyed) return;
    if (response.tail) await send(response.tail);
    outgoing.end();
    return;
  }
  if ("chunks" in response) {
    outgoing.writeHead(status, { "content-type": "text/event-stream", ...response.headers });
    outgoing.flushHeaders();
    for (const chunk of response.chunks) {
      if (outgoing.destroyed) return;
      counter.bytes += Buffer.byteLength(chunk);
      outgoing.write(chunk);
      if (response.chunkDelayMs) await sleep(response.chunkDelayMs);
    }
    if (response.dropAfterChunks) outgoing.socket?.destroy();
    else outgoing.end();
    return;
  }
  const body = response.body === undefined ? "" : typeof response.body === "string" ? response.body : JSON.stringify(response.body);
  const contentType = typeof response.body === "string" || response.body === undefined ? "text/plain" : "application/json";
  outgoing.writeHead(status, { "content-type": contentType, ...response.headers });
  counter.bytes += Buffer.byteLength(body);
  outgoing.end(body);
}

/** Server-sent events as OpenAI-style APIs send them: `data: <json>\n\n`, then `data: [DONE]`. */
export function sseData(events: unknown[], options: { done?: boolean } = {}): string[] {
  const chunks = events.map((event) => `data: ${typeof event === "string" ? event : JSON.stringify(event)}\n\n`);
  if (options.done ?? true) chunks.push("data: [DONE]\n\n");
  return chunks;
}

/** Server-sent events with an `event:` line naming each event's type, as Anthropic sends them. */
export function sseNamedEvents(events: Array<{ type: string }>): string[] {
  return events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
}

/** Newline-delimited JSON, as Ollama streams: one object per line. */
export function ndjson(objects: unknown[]): string[] {
  return objects.map((object) => `${JSON.stringify(object)}\n`);
}

const fixturesRoot = path.join(import.meta.dirname, "..", "fixtures", "vendors");

/** A fixture file's text, from tests/fixtures/vendors/<vendor>/<name>. */
export function readFixture(vendor: string, name: string): string {
  return readFileSync(path.join(fixturesRoot, vendor, name), "utf8");
}

/** A JSON fixture, parsed. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- recorded vendor JSON, shaped per test
export function readJsonFixture(vendor: string, name: string): any {
  return JSON.parse(readFixture(vendor, name));
}

/** A recorded stream stored one JSON chunk per line (the AI SDK's `*.chunks.txt` layout), parsed. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- recorded vendor JSON, shaped per test
export function readChunksFixture(vendor: string, name: string): any[] {
  return readFixture(vendor, name)
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line));
}

function parseJson(text: string): unknown {
  if (text === "") return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A key that is easy to look for in messages: only its last four characters may ever show. */
export const TEST_API_KEY = "sk-test-KEYMATERIAL-0000007f3a";

/** A generate request with defaults; the signal gives up after 10 s so a broken test cannot hang. */
export function textRequest(overrides: Partial<TextGenerateRequest> = {}): TextGenerateRequest {
  return {
    model: "test-model",
    prompt: "Say hello in French.",
    params: {},
    variables: {},
    signal: AbortSignal.timeout(10_000),
    ...overrides,
  };
}

/** The ProviderError a call fails with; anything else (or success) fails the test. */
export async function providerErrorOf(call: Promise<unknown>): Promise<ProviderError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof ProviderError) return error;
    throw error;
  }
  throw new Error("expected the call to fail with a ProviderError, but it succeeded");
}

/** Everything an error would show if logged: message, stack, causes, fields, nested to any depth. */
export function everythingIn(error: unknown): string {
  return `${inspect(error, { depth: Infinity, showHidden: true })}\n${safeJson(error)}`;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return "";
  }
}
