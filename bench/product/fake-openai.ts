// A local OpenAI-compatible chat-completions server for the product-path bench: every call is
// answered after a fixed latency with a deterministic text that repeats the prompt's topic, so
// the bench can check each cell got its own answer. It counts calls and the peak in flight, and
// can hold every call at a gate until released (the paint measurement opens the page first).
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeOpenAi {
  baseUrl: string;
  /** Calls answered since the last reset, and the most in flight at once. */
  stats(): { calls: number; peakInFlight: number };
  reset(options: { latencyMs: number; gated?: boolean }): void;
  /** Lets the calls held at the gate (and every later one) go on. */
  openGate(): void;
  close(): Promise<void>;
}

export async function startFakeOpenAi(): Promise<FakeOpenAi> {
  let latencyMs = 200;
  let calls = 0;
  let inFlight = 0;
  let peakInFlight = 0;
  let gate: Promise<void> = Promise.resolve();
  let open: () => void = () => {};

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => void answer(req, res, Buffer.concat(chunks).toString("utf8")));
  });

  async function answer(req: http.IncomingMessage, res: http.ServerResponse, body: string): Promise<void> {
    const path = (req.url ?? "").split("?")[0].replace(/\/+$/, "");
    if (req.method === "GET" && path.endsWith("/models")) return json(res, 200, { object: "list", data: [] });
    if (req.method !== "POST" || !path.endsWith("/chat/completions")) return json(res, 404, { error: { message: "no such route" } });
    let request: { model?: string; messages?: { role: string; content: unknown }[] };
    try {
      request = JSON.parse(body);
    } catch {
      return json(res, 400, { error: { message: "invalid JSON" } });
    }
    inFlight++;
    peakInFlight = Math.max(peakInFlight, inFlight);
    try {
      await gate;
      if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
      const last = [...(request.messages ?? [])].reverse().find((message) => message.role === "user");
      const prompt = typeof last?.content === "string" ? last.content : JSON.stringify(last?.content ?? "");
      const text = `echo[${request.model}]: ${prompt.slice(0, 60)}`;
      calls++;
      json(res, 200, {
        id: `chatcmpl-bench-${calls}`,
        object: "chat.completion",
        created: Math.floor(Date.now() / 1000),
        model: request.model,
        choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
        usage: { prompt_tokens: Math.ceil(prompt.length / 4), completion_tokens: Math.ceil(text.length / 4), total_tokens: 0 },
      });
    } finally {
      inFlight--;
    }
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  server.keepAliveTimeout = 60_000;
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    stats: () => ({ calls, peakInFlight }),
    reset(options) {
      latencyMs = options.latencyMs;
      calls = 0;
      peakInFlight = inFlight;
      if (options.gated) gate = new Promise<void>((resolve) => (open = resolve));
      else {
        open();
        gate = Promise.resolve();
      }
    },
    openGate: () => {
      open();
      gate = Promise.resolve();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function json(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}
