import http from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGuardedFetch, MAX_ERROR_BODY_BYTES } from "@/lib/providers/adapters/guarded-fetch";
import { IDLE_CONNECTION_MS, sendOverHttp } from "@/lib/providers/adapters/send-over-http";
import { classifyProviderError } from "@/lib/providers/adapters/classify-error";
import { isProviderError } from "@/lib/providers/provider-error";

// The transport every adapter's calls go over when no fetch is given (send-over-http.ts), against a
// real HTTP server: what fetch did for the adapters it must still do (decode, hand a stream over as
// it comes, reject an abort with its reason, fail a refused connection as fetch does), and the caps
// apply to what is decoded, while it is read.
const MB = 1024 * 1024;
let server: http.Server;
let base = "";
let release: (() => void) | null = null;
const seen: Array<{ path: string; headers: http.IncomingHttpHeaders; body: string }> = [];

beforeAll(async () => {
  server = http.createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      seen.push({ path: request.url ?? "", headers: request.headers, body });
      if (request.url === "/gzip") {
        response.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
        response.end(gzipSync(JSON.stringify({ answer: "decoded" })));
      } else if (request.url === "/gzip-bomb") {
        // 20 MB of zeros is ~20 kB compressed: the cap counts what it becomes
        response.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
        response.end(gzipSync(Buffer.alloc(20 * MB)));
      } else if (request.url === "/error-page") {
        response.writeHead(500, { "content-type": "text/html" });
        response.end("x".repeat(MAX_ERROR_BODY_BYTES * 4));
      } else if (request.url === "/events") {
        // the second event is sent only once the client asks /release, after it read the first
        response.writeHead(200, { "content-type": "text/event-stream" });
        response.write("data: one\n\n");
        release = () => response.end("data: two\n\n");
      } else if (request.url === "/release") {
        release?.();
        response.end();
      } else if (request.url === "/thinking") {
        // an answer that takes longer than a connection may stay idle in the pool
        setTimeout(() => response.end('{"thought":true}'), IDLE_CONNECTION_MS + 500);
      } else if (request.url === "/slow") {
        setTimeout(() => response.end("{}"), 5_000).unref();
      } else if (request.url === "/silent") {
        // never answers: only a backstop ends the call
      } else if (request.url === "/stall-json") {
        response.writeHead(200, { "content-type": "application/json" });
        response.write('{"half":');
      } else if (request.url === "/stall-events") {
        response.writeHead(200, { "content-type": "text/event-stream" });
        response.write("data: one\n\n");
      } else if (request.url === "/steady") {
        // 6 chunks 80 ms apart: slower in all than a body backstop of 200 ms, never pausing that long
        response.writeHead(200, { "content-type": "application/json" });
        let sent = 0;
        const tick = setInterval(() => {
          response.write(sent === 0 ? '{"n":"' : "x");
          if (++sent === 6) {
            clearInterval(tick);
            response.end('"}');
          }
        }, 80);
      } else if (request.url === "/events-quick") {
        response.writeHead(200, { "content-type": "text/event-stream" });
        response.write("data: one\n\n");
        setTimeout(() => response.write("data: two\n\n"), 20);
        setTimeout(() => response.end("data: three\n\n"), 40);
      } else if (request.url === "/moved") {
        response.writeHead(307, { location: "http://169.254.169.254/" });
        response.end("elsewhere");
      } else {
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify({ echo: body }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const guarded = createGuardedFetch({ label: "Vendor" });

async function rejectionOf(call: Promise<unknown>): Promise<unknown> {
  try {
    await call;
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to fail");
}

describe("provider calls over node:http", () => {
  it("sends the method, headers and body, and answers a Response", async () => {
    const response = await guarded(`${base}/echo`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer sk-test" },
      body: '{"prompt":"é"}',
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ echo: '{"prompt":"é"}' });
    const sent = seen.at(-1)!;
    expect(sent.headers.authorization).toBe("Bearer sk-test");
    expect(sent.headers["content-length"]).toBe(String(Buffer.byteLength('{"prompt":"é"}')));
    expect(sent.headers["accept-encoding"]).toContain("gzip");
  });

  it("undoes gzip, and counts the cap on what it becomes: a bomb is refused", async () => {
    expect(await (await guarded(`${base}/gzip`)).json()).toEqual({ answer: "decoded" });
    const error = await rejectionOf(guarded(`${base}/gzip-bomb`));
    expect(isProviderError(error) && error.message).toMatch(/larger than 10 MB/);
  });

  it("cuts an error page at its cap and keeps the status", async () => {
    const response = await guarded(`${base}/error-page`);
    expect(response.status).toBe(500);
    expect((await response.text()).length).toBe(MAX_ERROR_BODY_BYTES);
  });

  it("hands a stream over as it arrives (a buffered one would never give the first event)", async () => {
    const response = await guarded(`${base}/events`);
    const reader = response.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toBe("data: one\n\n");
    await fetch(`${base}/release`);
    let rest = "";
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += new TextDecoder().decode(chunk.value);
    expect(rest).toBe("data: two\n\n");
  });

  it("does not follow a redirect", async () => {
    const error = await rejectionOf(guarded(`${base}/moved`));
    expect(isProviderError(error) && error.message).toMatch(/redirect \(307\)/);
  });

  it("rejects an abort with the signal's reason, which is a timeout to the classifier", async () => {
    const signal = AbortSignal.timeout(100);
    const error = await rejectionOf(guarded(`${base}/slow`, { signal }));
    expect(error).toBe(signal.reason);
    expect(classifyProviderError(error, { provider: "Vendor", model: "m", apiKey: null, signal })?.code).toBe("timeout");
  });

  it("does not cut a call that waits longer for its answer than a connection may stay idle", async () => {
    const response = await guarded(`${base}/thinking`, { method: "POST", body: "{}" });
    expect(await response.json()).toEqual({ thought: true });
  }, 15_000);

  it("closes a connection left idle in the pool, as fetch did", async () => {
    // a server of its own, keeping idle connections longer than the client may: closing them is the client's part
    const lingering = http.createServer((request, response) => response.end("{}"));
    lingering.keepAliveTimeout = 30_000;
    await new Promise<void>((resolve) => lingering.listen(0, "127.0.0.1", resolve));
    const open = () =>
      new Promise<number>((resolve, reject) => lingering.getConnections((error, count) => (error ? reject(error) : resolve(count))));
    try {
      await (await guarded(`http://127.0.0.1:${(lingering.address() as AddressInfo).port}/`, { method: "POST", body: "{}" })).text();
      expect(await open()).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, IDLE_CONNECTION_MS + 1_000));
      expect(await open()).toBe(0);
    } finally {
      lingering.closeAllConnections();
      await new Promise((resolve) => lingering.close(resolve));
    }
  }, 15_000);

  it("fails a refused connection as fetch does: a network error naming its code", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const error = await rejectionOf(guarded(`http://127.0.0.1:${port}/v1/chat/completions`, { method: "POST", body: "{}" }));
    expect(error).toBeInstanceOf(TypeError);
    const classified = classifyProviderError(error, { provider: "Vendor", model: "m", apiKey: null });
    expect(classified?.code).toBe("network");
    expect(classified?.message).toContain("ECONNREFUSED");
  });

  describe("fetch's backstops, for a call its signal never ends", () => {
    const caps = { okBytes: MB, errorBytes: 1024, tooLarge: () => new Error("too large") };
    const short = { connectMs: 1_000, headersMs: 200, bodyMs: 200 };
    const send = (path: string) => sendOverHttp(`${base}${path}`, undefined, caps, short)!;
    const causeCode = (error: unknown) => ((error as { cause?: { code?: string } }).cause ?? {}).code;

    it("fails a call whose answer's headers never come, as a timeout", async () => {
      const error = await rejectionOf(send("/silent"));
      expect(error).toBeInstanceOf(TypeError);
      expect((error as Error).message).toBe("fetch failed");
      expect(causeCode(error)).toBe("UND_ERR_HEADERS_TIMEOUT");
      expect(classifyProviderError(error, { provider: "Vendor", model: "m", apiKey: null })?.code).toBe("timeout");
    });

    it("fails a whole answer whose body stops coming, and a stream that stops", async () => {
      const error = await rejectionOf(send("/stall-json"));
      expect((error as Error).message).toBe("terminated");
      expect(causeCode(error)).toBe("UND_ERR_BODY_TIMEOUT");

      const reader = (await send("/stall-events")).body!.getReader();
      expect(new TextDecoder().decode((await reader.read()).value)).toBe("data: one\n\n");
      const stopped = await rejectionOf(reader.read());
      expect((stopped as Error).message).toBe("terminated");
      expect(causeCode(stopped)).toBe("UND_ERR_BODY_TIMEOUT");
    });

    it("does not cut a body that keeps coming, nor a stream its reader left waiting", async () => {
      expect(await (await send("/steady")).json()).toEqual({ n: "xxxxx" });

      const reader = (await send("/events-quick")).body!.getReader();
      expect(new TextDecoder().decode((await reader.read()).value)).toBe("data: one\n\n");
      // the reader looks away for longer than the backstop while the rest arrives
      await new Promise((resolve) => setTimeout(resolve, 500));
      let rest = "";
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += new TextDecoder().decode(chunk.value);
      expect(rest).toBe("data: two\n\ndata: three\n\n");
    });
  });
});
