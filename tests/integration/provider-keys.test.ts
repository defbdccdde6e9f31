import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localUserId } from "@/lib/auth/local-user";
import { lastFour, sealSecret } from "@/lib/auth/secret-box";
import { asUser } from "@/lib/db/as-user";
import { listProviderKeys, upsertProviderKey } from "@/lib/db/keys/provider-keys";
import { createCredentialSource } from "@/lib/engine/credential-source";
import { createRun, estimateRun } from "@/lib/engine/create-run";
import { createDefaultProviderRegistry } from "@/lib/server/default-registry";
import type { ProviderFactory } from "@/lib/providers/provider-factories";
import { createPgliteTestDatabase, userB, type TestDatabase } from "../helpers/databases";

const factory = {
  id: "openai",
  label: "OpenAI",
  needsKey: true,
  defaultBaseURL: "https://api.openai.com/v1",
  envKey: "OPENAI_API_KEY",
} as ProviderFactory;
const secretKey = Buffer.alloc(32, 3);

describe("stored provider keys and where credentials come from", () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createPgliteTestDatabase();
  });
  afterAll(async () => {
    await test.drop();
  });

  it("stores a key sealed and lists only its last four characters", async () => {
    const apiKey = "sk-test-KEYMATERIAL-0000007f3a";
    const summary = await asUser(test.db, localUserId, (tx) =>
      upsertProviderKey(tx, { provider: "openai", sealed: sealSecret(secretKey, apiKey), last4: lastFour(apiKey), baseUrl: null }),
    );
    expect(summary).toMatchObject({ provider: "openai", last4: "7f3a" });
    const listed = await asUser(test.db, localUserId, (tx) => listProviderKeys(tx));
    expect(JSON.stringify([summary, listed])).not.toContain("KEYMATERIAL");
    // and the table itself holds no plaintext
    const raw = await test.db.query("select * from provider_keys");
    expect(JSON.stringify(raw.rows)).not.toContain("KEYMATERIAL");
  });

  it("gives the worker the stored key, decrypted, for its owner only", async () => {
    const source = createCredentialSource({ db: test.db, secretKey, env: {} });
    await expect(source({ provider: "openai", userId: localUserId, factory })).resolves.toEqual({
      apiKey: "sk-test-KEYMATERIAL-0000007f3a",
      baseURL: "https://api.openai.com/v1",
      // the local user of a loopback server may call local servers (Ollama, LM Studio)
      allowPrivateAddresses: true,
    });
    await expect(source({ provider: "openai", userId: userB, factory })).rejects.toMatchObject({ code: "auth" });
  });

  it("falls back to the environment's key for the local user only, and says how to add one", async () => {
    const env = { ANTHROPIC_API_KEY: "sk-ant-env", ANTHROPIC_BASE_URL: "http://127.0.0.1:9/v1" };
    const anthropic = { ...factory, id: "anthropic", label: "Anthropic", envKey: "ANTHROPIC_API_KEY" } as ProviderFactory;
    const source = createCredentialSource({ db: test.db, secretKey, env });
    await expect(source({ provider: "anthropic", userId: localUserId, factory: anthropic })).resolves.toEqual({
      apiKey: "sk-ant-env",
      baseURL: "http://127.0.0.1:9/v1",
      allowPrivateAddresses: true,
    });
    await expect(source({ provider: "anthropic", userId: userB, factory: anthropic })).rejects.toThrow(
      "No Anthropic key: add one in Settings -> Keys, or set ANTHROPIC_API_KEY in .env.",
    );
  });

  it("remembers a found credential briefly, and forgets it when told the key changed", async () => {
    const source = createCredentialSource({ db: test.db, secretKey, env: {} });
    const first = await source({ provider: "openai", userId: localUserId, factory });
    const replaced = "sk-test-REPLACEDKEY-00000000b2c4";
    await asUser(test.db, localUserId, (tx) =>
      upsertProviderKey(tx, { provider: "openai", sealed: sealSecret(secretKey, replaced), last4: lastFour(replaced), baseUrl: null }),
    );
    // within the few seconds it is kept, the old credential is still answered...
    await expect(source({ provider: "openai", userId: localUserId, factory })).resolves.toEqual(first);
    // ...until the server that saved the key says so
    source.forget!({ provider: "openai", userId: localUserId });
    await expect(source({ provider: "openai", userId: localUserId, factory })).resolves.toMatchObject({ apiKey: replaced });
  });

  it("plans and creates a run of a vendor model whose key is stored, on PGlite, without waiting on itself", async () => {
    // Resolving the vendor's adapter reads the stored key. Done inside the run's transaction, that
    // read waited for the transaction to end, which waited for the read: on PGlite (one connection)
    // every later query of the server hung with it. A fresh registry has no key remembered.
    const providers = createDefaultProviderRegistry({ db: test.db, secretKey, env: {} });
    const input = { prompt: "Say {{word}}.", rows: [{ word: "hi" }], models: [{ provider: "openai", model: "gpt-4o" }] };
    const plan = await withDeadline(estimateRun({ db: test.db, providers }, { userId: localUserId, input }), "the plan");
    expect(plan.models[0]).toMatchObject({ provider: "openai", model: "gpt-4o", cells: 1, priced: true });
    const fresh = createDefaultProviderRegistry({ db: test.db, secretKey, env: {} });
    const run = await withDeadline(
      createRun({ db: test.db, providers: fresh }, { userId: localUserId, input: { ...input, cache: false } }),
      "the run",
    );
    expect(run).toMatchObject({ status: "queued", plan: { cells: 1 } });
    // and the database still answers
    await expect(withDeadline(test.db.query("select 1 as one"), "a query after them")).resolves.toMatchObject({ rows: [{ one: 1 }] });
  });
});

function withDeadline<T>(promise: Promise<T>, what: string, ms = 10_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not come back within ${ms} ms`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
