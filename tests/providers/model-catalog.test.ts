import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localUserId } from "@/lib/auth/local-user";
import { createCredentialSource } from "@/lib/engine/credential-source";
import { createMockProvider } from "@/lib/providers/mock-provider";
import { providerFactories } from "@/lib/providers/provider-factories";
import { createProviderRegistry } from "@/lib/providers/registry";
import { createPgliteTestDatabase, type TestDatabase } from "../helpers/databases";

/** A local port with nothing listening on it: a server is opened on a free port and closed again. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

// What the model picker lists (GET /api/v1/models reads listModelsFor): the real Ollama adapter
// and credential source, with Ollama not running.
describe("the model catalog", () => {
  let test: TestDatabase;
  let port: number;
  beforeAll(async () => {
    test = await createPgliteTestDatabase();
    port = await closedPort();
  });
  afterAll(() => test.drop());

  const catalogWith = (env: Record<string, string>) => {
    const ollama = { ...providerFactories.ollama, defaultBaseURL: `http://127.0.0.1:${port}` };
    const credentials = createCredentialSource({ db: test.db, secretKey: Buffer.alloc(32, 7), env });
    return createProviderRegistry([createMockProvider()], { factories: { ollama }, credentials }).listModelsFor(localUserId);
  };

  it("lists an Ollama nobody set up as not set up, without its connection error", async () => {
    const catalog = await catalogWith({ PARALLAXR_ALLOW_PRIVATE_BASE_URLS: "1" });
    expect(catalog.providers.find((provider) => provider.id === "ollama")).toMatchObject({ configured: false });
    expect(catalog.unavailable).toEqual([]);
  });

  it("says why an Ollama someone pointed at an address does not answer", async () => {
    const catalog = await catalogWith({ PARALLAXR_ALLOW_PRIVATE_BASE_URLS: "1", OLLAMA_BASE_URL: `http://127.0.0.1:${port}` });
    expect(catalog.providers.find((provider) => provider.id === "ollama")).toMatchObject({ configured: true });
    expect(catalog.unavailable.map((entry) => entry.provider)).toEqual(["ollama"]);
  });

  it("leaves the mock's file alias out of the list; it still runs", async () => {
    const catalog = await catalogWith({});
    const mockModels = catalog.models.filter((model) => model.provider === "mock").map((model) => model.model);
    expect(mockModels).toContain("fast");
    expect(mockModels).not.toContain("mock");
    const answer = await createMockProvider().generate({
      model: "mock",
      prompt: "hi",
      params: {},
      variables: {},
      signal: new AbortController().signal,
    });
    expect(answer.text).toContain("MOCK RESPONSE");
  });
});
