import sharp from "sharp";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { localUserId } from "@/lib/auth/local-user";
import { lastFour, sealSecret } from "@/lib/auth/secret-box";
import { asUser } from "@/lib/db/as-user";
import { upsertProviderKey } from "@/lib/db/keys/provider-keys";
import { createCredentialSource } from "@/lib/engine/credential-source";
import { createMockImageProvider } from "@/lib/providers/image/mock";
import { createImageProviderRegistry, type ImageProviderRegistry } from "@/lib/providers/image/registry";
import type { ImageGenerationRequest } from "@/lib/providers/image/types";
import { createDefaultProviderRegistry } from "@/lib/server/default-registry";
import { listProviderKeys, saveProviderKey } from "@/lib/services/keys";
import {
  createPgliteTestDatabase,
  createServerTestDatabase,
  postgresServerAvailable,
  userB,
  type TestDatabase,
} from "../helpers/databases";
import { TEST_API_KEY, providerErrorOf, startVendorServer, type VendorServer } from "../helpers/vendor-server";

const secretKey = Buffer.alloc(32, 9);
const job = (overrides: Partial<ImageGenerationRequest> = {}): ImageGenerationRequest => ({
  model: "m",
  prompt: "A glossy food portrait of ramen",
  size: "1024x1024",
  n: 1,
  signal: AbortSignal.timeout(10_000),
  ...overrides,
});

/**
 * Image adapters take their credentials where the text adapters do: a key saved in Settings ->
 * Keys (bound to its base URL), else the local user's environment. Real database (PGlite), real
 * credential source, vendors as local servers.
 */
function registrySuite(name: string, open: () => Promise<TestDatabase | null>) {
  describe(`image provider registry with the text providers' credentials, on ${name}`, () => {
    let test: TestDatabase | null = null;
    let server: VendorServer;
    const registryWith = (env: Record<string, string>): ImageProviderRegistry =>
      createImageProviderRegistry([createMockImageProvider()], { credentials: createCredentialSource({ db: database(), secretKey, env }) });
    const database = () => {
      if (!test) throw new Error("no database");
      return test.db;
    };

    beforeAll(async () => {
      [test, server] = await Promise.all([open(), startVendorServer()]);
    });
    afterEach(() => server.reset());
    afterAll(async () => {
      await Promise.all([test?.drop(), server.close()]);
    });

    it("resolves the keyless mock for anyone, and names the known providers for an unknown one", async () => {
      if (!test) return;
      const registry = registryWith({});
      const mock = await registry.resolve({ provider: "mock", userId: userB });
      expect((await mock.generate(job({ size: "64x64" }))).images).toHaveLength(1);
      const error = await providerErrorOf(registry.resolve({ provider: "midjourney", userId: localUserId }));
      expect(error.message).toBe('Unknown image provider "midjourney". Known image providers: mock, openai, gemini, flux, openrouter.');
      expect(registry.list().map((entry) => entry.id)).toEqual(["mock", "openai", "gemini", "flux", "openrouter"]);
    });

    it("takes FLUX's key from BFL_API_KEY for the local user only, and sends it to FLUX_BASE_URL", async () => {
      if (!test) return;
      const registry = registryWith({ BFL_API_KEY: TEST_API_KEY, FLUX_BASE_URL: server.origin });
      server.enqueue({ status: 401, body: { detail: "Invalid API key" } });
      await providerErrorOf((await registry.resolve({ provider: "flux", userId: localUserId })).generate(job({ model: "flux-2-pro" })));
      expect(server.requests[0].path).toBe("/v1/flux-2-pro");
      expect(server.requests[0].headers["x-key"]).toBe(TEST_API_KEY);
      const other = await providerErrorOf(registry.resolve({ provider: "flux", userId: userB }));
      expect(other.code).toBe("auth");
      expect(other.message).toBe("No Black Forest Labs (FLUX) key: add one in Settings -> Keys, or set BFL_API_KEY in .env.");
    });

    it("takes Gemini's key from GEMINI_API_KEY", async () => {
      if (!test) return;
      const registry = registryWith({ GEMINI_API_KEY: TEST_API_KEY, GEMINI_BASE_URL: `${server.origin}/v1beta` });
      server.enqueue({ status: 500, body: { error: { code: 500, status: "INTERNAL", message: "x" } } });
      await providerErrorOf(
        (await registry.resolve({ provider: "gemini", userId: localUserId })).generate(job({ model: "gemini-2.5-flash-image" })),
      );
      expect(server.requests[0].headers["x-goog-api-key"]).toBe(TEST_API_KEY);
    });

    it("uses a key saved for OpenAI's text models, at the base URL it was saved with", async () => {
      if (!test) return;
      const stored = "sk-test-STOREDKEY-000000009c1d";
      await asUser(database(), userB, (tx) =>
        upsertProviderKey(tx, {
          provider: "openai",
          sealed: sealSecret(secretKey, stored),
          last4: lastFour(stored),
          baseUrl: `${server.origin}/v1`,
        }),
      );
      const png = (
        await sharp({ create: { width: 8, height: 8, channels: 3, background: "#123" } })
          .png()
          .toBuffer()
      ).toString("base64");
      server.enqueue({ body: { created: 1, data: [{ b64_json: png }] } });
      // The environment's key and address do not apply to a user's stored key.
      const registry = registryWith({ OPENAI_API_KEY: "sk-env-NOTTHISONE-0000000000", OPENAI_BASE_URL: "http://127.0.0.1:9/v1" });
      const result = await (await registry.resolve({ provider: "openai", userId: userB })).generate(job({ model: "gpt-image-1" }));
      expect(result.images[0].width).toBe(8);
      expect(server.requests[0].path).toBe("/v1/images/generations");
      expect(server.requests[0].headers.authorization).toBe(`Bearer ${stored}`);
    });

    it("lets a FLUX key be saved in Settings -> Keys, which the image registry then sends to its saved host only", async () => {
      if (!test) return;
      const providers = createDefaultProviderRegistry({ db: database(), secretKey, env: { PARALLAXR_MODELS_DIR: "/nonexistent" } });
      const { providers: listed } = await listProviderKeys({ db: database(), providers }, { userId: localUserId });
      expect(listed.find((entry) => entry.id === "flux")).toEqual({
        id: "flux",
        label: "Black Forest Labs (FLUX)",
        needsKey: true,
        defaultBaseUrl: "https://api.bfl.ai",
      });
      const saved = await saveProviderKey(
        { db: database(), providers, secretKey, access: { allowPrivateBaseUrls: true } },
        { userId: localUserId, provider: "flux", key: { apiKey: TEST_API_KEY, baseUrl: server.origin } },
      );
      expect(saved).toMatchObject({ provider: "flux", last4: "7f3a" });
      // Not a text provider: the model picker does not offer it.
      expect(providers.has("flux")).toBe(false);

      const poller = await startVendorServer();
      try {
        server.enqueue({ body: { id: "t1", polling_url: `${poller.origin}/v1/get_result?id=t1` } });
        poller.enqueue({ body: { id: "t1", status: "Content Moderated", result: null } });
        const flux = await registryWith({}).resolve({ provider: "flux", userId: localUserId });
        await providerErrorOf(flux.generate(job({ model: "flux-2-pro" })));
        expect(server.requests[0].headers["x-key"]).toBe(TEST_API_KEY);
        expect(poller.requests[0].headers["x-key"]).toBeUndefined();
      } finally {
        await poller.close();
      }
    });
  });
}

registrySuite("PGlite", createPgliteTestDatabase);
registrySuite("the Postgres server", async () => ((await postgresServerAvailable()) ? createServerTestDatabase() : null));
