import http from "node:http";

/** What a raw HTTP request got back. */
export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/**
 * One HTTP/1.1 request with node:http, for what fetch and Playwright will not send: a forged Host
 * header, or a chunked body with no Content-Length. body as an async iterable is sent chunked.
 */
export function rawRequest({
  url,
  method = "GET",
  headers = {},
  body,
}: {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: Buffer | string | AsyncIterable<Buffer>;
}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const request = http.request(
      { host: target.hostname, port: target.port, path: target.pathname + target.search, method, headers, agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, text: Buffer.concat(chunks).toString("utf8") }),
        );
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    if (body === undefined || typeof body === "string" || Buffer.isBuffer(body)) {
      request.end(body);
      return;
    }
    void (async () => {
      try {
        for await (const chunk of body) {
          if (!request.write(chunk)) await new Promise((resolve) => request.once("drain", resolve));
        }
        request.end();
      } catch (error) {
        request.destroy(error as Error);
      }
    })();
  });
}

/** size bytes of JSON-ish filler in chunks of 64 KB: a body that never says how long it is. */
export async function* chunkedFiller(size: number): AsyncGenerator<Buffer> {
  const chunk = Buffer.alloc(64 * 1024, "a");
  let sent = 0;
  const head = Buffer.from('{"name":"too big","text":"');
  yield head;
  sent += head.length;
  while (sent < size) {
    const part = chunk.subarray(0, Math.min(chunk.length, size - sent));
    yield part;
    sent += part.length;
  }
  yield Buffer.from('"}');
}
