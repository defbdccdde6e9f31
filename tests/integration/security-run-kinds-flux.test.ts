// An attacker's review of the image batches, the FLUX half: Black Forest Labs answers a polling
// URL that the adapter then fetches, so a hostile or compromised answer picks the address. Two
// local servers speaking BFL's wire format: the saved host (the key's) and a listener standing
// for any other host. tests/providers/image-flux.test.ts covers the plain cases (another host,
// loopback, metadata and private names where the server may not call them); these are the tricks
// around them: credentials in the URL, a redirect from the saved host, a look-alike origin.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { imageProviderFactories } from "@/lib/providers/image/registry";
import type { ImageGenerationRequest } from "@/lib/providers/image/types";
import { TEST_API_KEY, everythingIn, providerErrorOf, readFixture, startVendorServer, type VendorServer } from "../helpers/vendor-server";

const job = (): ImageGenerationRequest => ({
  model: "flux-2-flex",
  prompt: "a red kite",
  size: "1024x1024",
  n: 1,
  outputFormat: "jpeg",
  providerOptions: {},
  signal: AbortSignal.timeout(5_000),
});

describe("FLUX polling URLs chosen by the answer", () => {
  let api: VendorServer;
  let listener: VendorServer;
  beforeAll(async () => {
    [api, listener] = await Promise.all([startVendorServer(), startVendorServer()]);
  });
  afterEach(() => [api, listener].forEach((server) => server.reset()));
  afterAll(() => Promise.all([api, listener].map((server) => server.close())));

  const flux = () =>
    imageProviderFactories.flux.create({ apiKey: TEST_API_KEY, baseURL: api.origin, allowPrivateAddresses: true }, { pollIntervalMs: 10 });
  const submitAnswer = (pollingUrl: string) => ({ body: readFixture("image-flux", "submit.json").replace("__POLLING_URL__", pollingUrl) });
  const keysSentTo = (server: VendorServer) => server.requests.filter((request) => JSON.stringify(request.headers).includes(TEST_API_KEY));

  it("refuses a polling URL with the saved host as its user name (http://saved@listener/): nothing sent to the listener", async () => {
    const listenerHost = new URL(listener.origin).host;
    const savedHost = new URL(api.origin).host.replace(":", "%3A");
    api.enqueue(submitAnswer(`http://${savedHost}:${TEST_API_KEY}@${listenerHost}/v1/get_result?id=abc`));
    const error = await providerErrorOf(flux().generate(job()));
    expect(error.code).toBe("bad_request");
    expect(error.message).toMatch(/polling URL/);
    expect(listener.requests).toHaveLength(0);
    expect(everythingIn(error)).not.toContain(TEST_API_KEY);
  });

  it("does not follow a redirect from the saved host's polling URL to another host (the key would go along)", async () => {
    api.enqueue(submitAnswer(`${api.origin}/v1/get_result?id=abc`), {
      status: 302,
      headers: { location: `${listener.origin}/steal?id=abc` },
      body: "",
    });
    listener.route("GET /steal", { body: { status: "Ready", result: { sample: `${listener.origin}/x.jpg` } } });
    const error = await providerErrorOf(flux().generate(job()));
    expect(error.code).toBe("bad_request");
    expect(error.message).toBe(
      "Black Forest Labs (polling URL) answered with a redirect (302) to another address. Redirects of a base URL are not followed: set the base URL to the address it points to.",
    );
    expect(listener.requests).toHaveLength(0);
    expect(api.requests.map((request) => [request.method, request.path])).toEqual([
      ["POST", "/v1/flux-2-flex"],
      ["GET", "/v1/get_result"],
    ]);
    expect(everythingIn(error)).not.toContain(TEST_API_KEY);
  });

  it("sends no key to a look-alike origin: the saved host on another port, or over https", async () => {
    const saved = new URL(api.origin);
    for (const pollingUrl of [
      `${listener.origin}/v1/get_result?id=abc`,
      `http://localhost:${listener.origin.split(":").pop()}/v1/get_result?id=abc`,
    ]) {
      api.enqueue(submitAnswer(pollingUrl));
      listener.enqueue({ status: 401, body: { detail: "Invalid API key" } });
      const error = await providerErrorOf(flux().generate(job()));
      expect(error.code).toBe("auth");
      expect(error.message).toContain(`only sent to the host it was saved for (${saved.origin})`);
      expect(keysSentTo(listener)).toEqual([]);
      expect(listener.requests.length).toBeGreaterThan(0);
      expect(keysSentTo(api).map((request) => request.path)).toEqual(["/v1/flux-2-flex"]);
      listener.reset();
      api.reset();
    }
  });
});
