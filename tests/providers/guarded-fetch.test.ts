import { describe, expect, it } from "vitest";
import {
  createGuardedFetch,
  MAX_ERROR_BODY_BYTES,
  MAX_IMAGE_RESPONSE_BYTES,
  MAX_TEXT_RESPONSE_BYTES,
} from "@/lib/providers/adapters/guarded-fetch";
import { isProviderError } from "@/lib/providers/provider-error";

// The address checks of the fetch every adapter uses, where private addresses are refused (a
// token-protected server). The resolver is an argument, so a name's answer is ours to choose.
function recordingFetch() {
  const sent: string[] = [];
  const fetch = (async (input: string | URL | Request) => {
    sent.push(String(input));
    return new Response('{"ok":true}', { status: 200, headers: { "content-type": "application/json" } });
  }) as typeof globalThis.fetch;
  return { fetch, sent };
}

async function errorOf(call: Promise<unknown>) {
  try {
    await call;
  } catch (error) {
    if (isProviderError(error)) return error;
    throw error;
  }
  throw new Error("expected a ProviderError");
}

describe("createGuardedFetch: addresses", () => {
  it("refuses a public-looking name that resolves to a private address, before anything is sent", async () => {
    const { fetch, sent } = recordingFetch();
    const guarded = createGuardedFetch({
      label: "OpenAI",
      fetch,
      allowPrivateAddresses: false,
      resolveHost: async () => ["93.184.216.34", "10.0.0.5"],
    });
    const error = await errorOf(guarded("https://api.example.test/v1/chat/completions", { method: "POST" }));
    expect(error).toMatchObject({ code: "bad_request", retryable: false });
    expect(error.message).toContain("resolves to 10.0.0.5");
    expect(error.message).toContain("PARALLAXR_ALLOW_PRIVATE_BASE_URLS=1");
    expect(sent).toEqual([]);
  });

  it("refuses the metadata address and loopback written as literals, without resolving", async () => {
    const { fetch, sent } = recordingFetch();
    const asked: string[] = [];
    const guarded = createGuardedFetch({
      label: "Ollama",
      fetch,
      allowPrivateAddresses: false,
      resolveHost: async (host) => (asked.push(host), []),
    });
    for (const url of ["http://169.254.169.254/latest/meta-data/", "http://[::1]:11434/api/chat", "http://localhost:11434/api/chat"]) {
      await expect(errorOf(guarded(url))).resolves.toMatchObject({ code: "bad_request" });
    }
    expect(sent).toEqual([]);
    expect(asked).toEqual([]);
  });

  it("sends to a name that resolves to public addresses only", async () => {
    const { fetch, sent } = recordingFetch();
    const guarded = createGuardedFetch({
      label: "OpenAI",
      fetch,
      allowPrivateAddresses: false,
      resolveHost: async () => ["93.184.216.34"],
    });
    expect((await guarded("https://api.example.test/v1/models")).status).toBe(200);
    expect(sent).toEqual(["https://api.example.test/v1/models"]);
  });

  it("resolves nothing where private addresses are allowed (the local user)", async () => {
    const { fetch, sent } = recordingFetch();
    const guarded = createGuardedFetch({
      label: "Ollama",
      fetch,
      resolveHost: async () => {
        throw new Error("must not resolve");
      },
    });
    expect((await guarded("http://127.0.0.1:11434/api/tags")).status).toBe(200);
    expect(sent).toHaveLength(1);
  });

  it("names its caps", () => {
    expect(MAX_TEXT_RESPONSE_BYTES).toBe(10 * 1024 * 1024);
    expect(MAX_IMAGE_RESPONSE_BYTES).toBeGreaterThan(MAX_TEXT_RESPONSE_BYTES);
    expect(MAX_ERROR_BODY_BYTES).toBeLessThan(MAX_TEXT_RESPONSE_BYTES);
  });
});
