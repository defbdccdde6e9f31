import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { imageErrorKind } from "@/lib/providers/image/image-provider-error";
import { imageProviderFactories } from "@/lib/providers/image/registry";
import type { ImageGenerationRequest } from "@/lib/providers/image/types";
import {
  TEST_API_KEY,
  everythingIn,
  providerErrorOf,
  readFixture,
  readJsonFixture,
  startVendorServer,
  type VendorServer,
} from "../helpers/vendor-server";

const job = (overrides: Partial<ImageGenerationRequest> = {}): ImageGenerationRequest => ({
  model: "flux-2-flex",
  prompt: "A glossy food portrait of ramen",
  size: "1024x1024",
  seed: 42,
  n: 1,
  outputFormat: "jpeg",
  providerOptions: { guidance: 5 },
  signal: AbortSignal.timeout(10_000),
  ...overrides,
});

async function jpeg(): Promise<Buffer> {
  return sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 120, g: 40, b: 200 } } })
    .jpeg()
    .toBuffer();
}

/**
 * Three hosts, as in production: the saved API host (the key's), the polling host the answer
 * names (api.us1.bfl.ai) and the delivery host of the signed result URL. Here they are three local
 * servers on three ports, so three origins.
 */
describe("FLUX adapter (Black Forest Labs: submit, poll, download over HTTP)", () => {
  let api: VendorServer;
  let poller: VendorServer;
  let delivery: DeliveryServer;

  beforeAll(async () => {
    [api, poller, delivery] = await Promise.all([startVendorServer(), startVendorServer(), startDeliveryServer()]);
  });
  afterEach(() => [api, poller, delivery].forEach((server) => server.reset()));
  afterAll(() => Promise.all([api, poller, delivery].map((server) => server.close())));

  const provider = (options: { allowPrivateAddresses?: boolean; maxDownloadBytes?: number } = {}) =>
    imageProviderFactories.flux.create(
      { apiKey: TEST_API_KEY, baseURL: api.origin, allowPrivateAddresses: options.allowPrivateAddresses },
      { pollIntervalMs: 10, maxDownloadBytes: options.maxDownloadBytes },
    );
  const submitAnswer = (pollingUrl: string) => ({ body: readFixture("image-flux", "submit.json").replace("__POLLING_URL__", pollingUrl) });
  const readyAnswer = (sampleUrl: string) => ({ body: readFixture("image-flux", "poll-ready.json").replace("__SAMPLE_URL__", sampleUrl) });

  it("submits with the key, polls until Ready and downloads the sample, the key going only to the saved host", async () => {
    const pollingUrl = `${poller.origin}/v1/get_result?id=9c5f1b2e-6a43-4d8e-9f1a-2b7c3d4e5f60`;
    const sampleUrl = `${delivery.origin}/results/9c5f/sample.jpeg?se=2026-01-06T19%3A13%3A42Z&sig=SIGNATURE`;
    api.enqueue(submitAnswer(pollingUrl));
    poller.enqueue(
      { body: readJsonFixture("image-flux", "poll-pending.json") },
      { body: readJsonFixture("image-flux", "poll-pending.json") },
      readyAnswer(sampleUrl),
    );
    const image = await jpeg();
    delivery.serve(image);

    const result = await provider().generate(job());

    expect(api.requests).toHaveLength(1);
    const [submit] = api.requests;
    expect(submit.method).toBe("POST");
    expect(submit.path).toBe("/v1/flux-2-flex");
    expect(submit.headers["x-key"]).toBe(TEST_API_KEY);
    expect(submit.body).toEqual({
      prompt: "A glossy food portrait of ramen",
      width: 1024,
      height: 1024,
      seed: 42,
      output_format: "jpeg",
      guidance: 5,
    });

    expect(poller.requests).toHaveLength(3);
    for (const poll of poller.requests) {
      expect(poll.path).toBe("/v1/get_result");
      expect(poll.query.get("id")).toBe("9c5f1b2e-6a43-4d8e-9f1a-2b7c3d4e5f60");
      expect(poll.headers["x-key"]).toBeUndefined();
      expect(JSON.stringify(poll.headers)).not.toContain("KEYMATERIAL");
    }
    expect(delivery.requests).toHaveLength(1);
    expect(delivery.requests[0].url).toContain("sig=SIGNATURE");
    expect(JSON.stringify(delivery.requests[0].headers)).not.toContain("KEYMATERIAL");

    expect(Buffer.from(result.images[0].data).equals(image)).toBe(true);
    expect(result.images[0]).toMatchObject({ mediaType: "image/jpeg", width: 64, height: 64 });
    expect(result.receipt).toMatchObject({
      provider: "flux",
      model: "flux-2-flex",
      endpoint: `${api.origin}/v1/flux-2-flex`,
      request: submit.body,
      response: {
        id: "9c5f1b2e-6a43-4d8e-9f1a-2b7c3d4e5f60",
        status: "Ready",
        polling_url: `${poller.origin}/v1/get_result`,
        sample_url: `${delivery.origin}/results/9c5f/sample.jpeg`,
        result: { seed: 42, duration: 8.46 },
      },
      usage: { cost_credits: 3, output_mp: 1.05 },
      costUsd: null,
    });
    const receipt = JSON.stringify(result.receipt);
    expect(receipt).not.toContain("KEYMATERIAL");
    expect(receipt).not.toContain("SIGNATURE");
  });

  it("sends the key to a polling URL on the saved host itself, and only there", async () => {
    const sampleUrl = `${delivery.origin}/sample.jpeg`;
    api.enqueue(submitAnswer(`${api.origin}/v1/get_result?id=abc`), readyAnswer(sampleUrl));
    delivery.serve(await jpeg());
    await provider().generate(job());
    expect(api.requests.map((request) => [request.path, request.headers["x-key"]])).toEqual([
      ["/v1/flux-2-flex", TEST_API_KEY],
      ["/v1/get_result", TEST_API_KEY],
    ]);
    expect(delivery.requests[0].headers["x-key"]).toBeUndefined();
  });

  it("polls the saved host's get_result when the answer names no polling URL, and takes a base URL with /v1", async () => {
    api.enqueue({ body: { id: "legacy-1" } }, readyAnswer(`${delivery.origin}/sample.jpeg`));
    delivery.serve(await jpeg());
    const legacy = imageProviderFactories.flux.create({ apiKey: TEST_API_KEY, baseURL: `${api.origin}/v1/` }, { pollIntervalMs: 10 });
    await legacy.generate(job());
    expect(api.requests.map((request) => [request.path, request.query.get("id"), request.headers["x-key"]])).toEqual([
      ["/v1/flux-2-flex", null, TEST_API_KEY],
      ["/v1/get_result", "legacy-1", TEST_API_KEY],
    ]);
  });

  it("says how to fix a polling host that wants the key it was not sent", async () => {
    api.enqueue(submitAnswer(`${poller.origin}/v1/get_result?id=abc`));
    poller.enqueue({ status: 403, body: { detail: "Not authenticated" } });
    const error = await providerErrorOf(provider().generate(job()));
    expect(error.code).toBe("auth");
    expect(error.message).toContain(`save the key in Settings -> Keys with the base URL ${poller.origin}`);
    expect(poller.requests[0].headers["x-key"]).toBeUndefined();
  });

  it("waits out a 429 or 500 while polling instead of failing the paid-for job", async () => {
    api.enqueue(submitAnswer(`${poller.origin}/v1/get_result?id=abc`));
    poller.enqueue(
      { status: 429, headers: { "retry-after-ms": "30" }, body: { detail: "Too many requests" } },
      { status: 502, body: { detail: "Bad gateway" } },
      readyAnswer(`${delivery.origin}/sample.jpeg`),
    );
    delivery.serve(await jpeg());
    const result = await provider().generate(job());
    expect(result.images).toHaveLength(1);
    expect(api.requests).toHaveLength(1);
    expect(poller.requests).toHaveLength(3);
  });

  it("fails the job when polling keeps failing", async () => {
    api.enqueue(submitAnswer(`${poller.origin}/v1/get_result?id=abc`));
    poller.route("GET /v1/get_result", { status: 503, body: { detail: "Service Unavailable" } });
    const error = await providerErrorOf(provider().generate(job()));
    expect(error).toMatchObject({ code: "server", statusCode: 503, retryable: true });
    expect(poller.requests).toHaveLength(6);
  });

  it("reports a moderated request as a content-policy refusal", async () => {
    api.enqueue(submitAnswer(`${poller.origin}/v1/get_result?id=abc`));
    poller.enqueue({ body: readJsonFixture("image-flux", "poll-content-moderated.json") });
    const error = await providerErrorOf(provider().generate(job()));
    expect(imageErrorKind(error)).toBe("content_policy");
    expect(error.message).toContain("Content Moderated");
    expect(delivery.requests).toHaveLength(0);
  });

  it("reports a generation that ended in Error as a retryable server error", async () => {
    api.enqueue(submitAnswer(`${poller.origin}/v1/get_result?id=abc`));
    poller.enqueue({ body: { id: "abc", status: "Error", result: null, details: { reason: "worker lost" } } });
    const error = await providerErrorOf(provider().generate(job()));
    expect(imageErrorKind(error)).toBe("server");
    expect(error.retryable).toBe(true);
  });

  it("ends polling that never reaches Ready at the call's timeout", async () => {
    // A polling host of its own: a poll still on its way when the time runs out must not reach
    // the next test's scripted answers.
    const slow = await startVendorServer();
    try {
      api.enqueue(submitAnswer(`${slow.origin}/v1/get_result?id=abc`));
      slow.route("GET /v1/get_result", { body: readJsonFixture("image-flux", "poll-pending.json") });
      const error = await providerErrorOf(provider().generate(job({ timeoutMs: 300 })));
      expect(imageErrorKind(error)).toBe("timeout");
      expect(slow.requests.length).toBeGreaterThan(3);
    } finally {
      await slow.close();
    }
  });

  it("refuses a result larger than the download limit, cutting it off", async () => {
    api.enqueue(submitAnswer(`${poller.origin}/v1/get_result?id=abc`));
    poller.enqueue(readyAnswer(`${delivery.origin}/huge.png`));
    delivery.serveEndless();
    const error = await providerErrorOf(provider({ maxDownloadBytes: 256 * 1024 }).generate(job()));
    expect(error).toMatchObject({ code: "server", retryable: false });
    expect(error.message).toContain("larger than 256 kB");
    // Cut off near the limit, not read to the end.
    expect(delivery.bytesSent).toBeLessThan(4 * 1024 * 1024);
  });

  it("refuses a result URL that is not http(s), without fetching anything", async () => {
    api.enqueue(submitAnswer(`${poller.origin}/v1/get_result?id=abc`));
    poller.enqueue(readyAnswer("file:///etc/passwd"));
    const error = await providerErrorOf(provider().generate(job()));
    expect(error.code).toBe("bad_request");
    expect(error.message).toContain("result URL");
    expect(delivery.requests).toHaveLength(0);
  });

  it("refuses n other than 1 before submitting (one image per request)", async () => {
    const error = await providerErrorOf(provider().generate(job({ n: 2 })));
    expect(imageErrorKind(error)).toBe("option_rejected");
    expect(api.requests).toHaveLength(0);
  });

  describe("where this server may not call private addresses", () => {
    // A public-looking saved host that resolves to a public address; the test fetch carries its
    // requests to the local API server. Anything else keeps its own address.
    const publicHost = "http://api.bfl.example";
    const resolveHost = async (host: string) => (host === "poll.attacker.example" ? ["10.0.0.7"] : ["93.184.216.34"]);
    const shared = () =>
      imageProviderFactories.flux.create(
        { apiKey: TEST_API_KEY, baseURL: publicHost, allowPrivateAddresses: false },
        {
          pollIntervalMs: 10,
          resolveHost,
          fetch: (input, init) => fetch(String(input instanceof Request ? input.url : input).replace(publicHost, api.origin), init),
        },
      );

    it.each([
      ["a private address", "http://169.254.169.254/latest/meta-data?id=abc"],
      ["loopback", "http://127.0.0.1:9/v1/get_result?id=abc"],
      ["a name that resolves to a private address", "http://poll.attacker.example/v1/get_result?id=abc"],
    ])("refuses a polling URL naming %s, sending nothing there", async (_what, pollingUrl) => {
      api.enqueue(submitAnswer(pollingUrl));
      const error = await providerErrorOf(shared().generate(job()));
      expect(error.code).toBe("bad_request");
      expect(error.message).toContain("PARALLAXR_ALLOW_PRIVATE_BASE_URLS");
      expect(api.requests).toHaveLength(1);
      expect(everythingIn(error)).not.toContain("KEYMATERIAL");
    });

    it("still submits to the saved public host (the refusal is about the returned URL)", async () => {
      api.enqueue({ status: 401, body: { detail: "Invalid API key" } });
      const error = await providerErrorOf(shared().generate(job()));
      expect(error.code).toBe("auth");
      expect(api.requests[0].headers["x-key"]).toBe(TEST_API_KEY);
    });
  });
});

/**
 * The delivery host of signed result URLs: answers with raw bytes (the vendor server writes
 * text), or with an endless image for the size limit, and records what it was sent.
 */
interface DeliveryServer {
  origin: string;
  requests: Array<{ url: string; headers: IncomingHttpHeaders }>;
  bytesSent: number;
  serve(bytes: Buffer): void;
  serveEndless(): void;
  reset(): void;
  close(): Promise<void>;
}

async function startDeliveryServer(): Promise<DeliveryServer> {
  let answer: Buffer | "endless" | null = null;
  const state: DeliveryServer = {
    origin: "",
    requests: [],
    bytesSent: 0,
    serve: (bytes) => (answer = bytes),
    serveEndless: () => (answer = "endless"),
    reset() {
      answer = null;
      state.requests.length = 0;
      state.bytesSent = 0;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = createServer((incoming, outgoing) => {
    state.requests.push({ url: incoming.url ?? "", headers: incoming.headers });
    if (answer === null) {
      outgoing.writeHead(404).end();
      return;
    }
    if (answer !== "endless") {
      outgoing.writeHead(200, { "content-type": "image/jpeg", "content-length": answer.length });
      state.bytesSent += answer.length;
      outgoing.end(answer);
      return;
    }
    // No content-length: the limit must be found while reading, not from the header.
    outgoing.writeHead(200, { "content-type": "image/png" });
    const chunk = Buffer.alloc(64 * 1024, 7);
    const pump = () => {
      while (!outgoing.destroyed && state.bytesSent < 64 * 1024 * 1024) {
        state.bytesSent += chunk.length;
        if (!outgoing.write(chunk)) {
          outgoing.once("drain", pump);
          return;
        }
      }
      if (!outgoing.destroyed) outgoing.end();
    };
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}
