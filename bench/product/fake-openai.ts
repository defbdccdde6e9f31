// A local OpenAI-compatible chat-completions server for the product-path bench: every call is
// answered after a fixed latency with a deterministic text that repeats the prompt's topic, so
// the bench can check each cell got its own answer. It counts calls and the peak in flight, and
// can hold every call at a gate until released (the paint measurement opens the page first).
import { readdirSync, readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { AddressInfo } from "node:net";

export interface FakeOpenAi {
  baseUrl: string;
  /** Calls answered since the last reset, and the most in flight at once. */
  stats(): { calls: number; peakInFlight: number };
  /** answerChars: 0 answers with a short echo; more pads the echo with prose to about that length. */
  reset(options: { latencyMs: number; gated?: boolean; answerChars?: number }): void;
  /** Lets the calls held at the gate (and every later one) go on. */
  openGate(): void;
  close(): Promise<void>;
}

/**
 * answerText says what pads a long answer: "prose" (words of a 200-word vocabulary, which deflate
 * takes to a third of its size) or "docs" (passages of this project's own English documentation,
 * docs/*.md, which deflate takes to about half: closer to what a model writes).
 */
export async function startFakeOpenAi({ answerText = "prose" }: { answerText?: "prose" | "docs" } = {}): Promise<FakeOpenAi> {
  const pad = answerText === "docs" ? passages(loadDocs()) : prose;
  let latencyMs = 200;
  let answerChars = 0;
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
      const echo = `echo[${request.model}]: ${prompt.slice(0, 60)}`;
      const text = answerChars > echo.length ? `${echo} ${pad(`${request.model} ${prompt}`, answerChars - echo.length - 1)}` : echo;
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
      answerChars = options.answerChars ?? 0;
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

// Words of ordinary explanatory English, so that an answer compresses about as well as a model's.
const words = (
  "the of and to a in is that it for as with was on be by this are or from at an which have not " +
  "but can more one all their has been if they also when there its so some other would into than " +
  "these only two may such first each most about over after what new used between because many " +
  "model answer prompt result input output example value number time data system small large " +
  "important different common simple often however usually instead while within without across " +
  "change test run case point step reason detail question process method approach problem " +
  "language people work state context summary quickly clearly carefully directly especially"
).split(" ");

function seedHash(seed: string): number {
  let state = 2166136261;
  for (let i = 0; i < seed.length; i++) state = Math.imul(state ^ seed.charCodeAt(i), 16777619) >>> 0;
  return state;
}

/** The project's English documentation, one text. */
function loadDocs(): string {
  const folder = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "docs");
  return readdirSync(folder)
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => readFileSync(path.join(folder, name), "utf8"))
    .join("\n\n");
}

/** A passage of exactly `length` characters of corpus, starting where the seed says. */
function passages(corpus: string): (seed: string, length: number) => string {
  return (seed, length) => {
    const text = corpus.length > length ? corpus : corpus.repeat(Math.ceil((length + 1) / corpus.length) + 1);
    const start = seedHash(seed) % (text.length - length);
    return text.slice(start, start + length);
  };
}

/** Deterministic prose of exactly `length` characters, different for every seed. */
function prose(seed: string, length: number): string {
  let state = seedHash(seed);
  const next = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0);
  let text = "";
  let sentence = 0;
  while (text.length < length) {
    const word = words[next() % words.length];
    text += sentence === 0 ? word[0].toUpperCase() + word.slice(1) : word;
    sentence++;
    if (sentence > 8 && next() % 6 === 0) {
      const comma = next() % 4 === 0;
      text += comma ? ", " : ". ";
      if (!comma) sentence = 0;
    } else text += " ";
  }
  return text.slice(0, length);
}
