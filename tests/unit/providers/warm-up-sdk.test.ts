import { afterEach, describe, expect, it, vi } from "vitest";
import { warmUpSdk } from "@/lib/providers/adapters/preload-sdks";

describe("warmUpSdk", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("asks an AI SDK model once, as the adapters do, without anything leaving the process", async () => {
    const requests: string[] = [];
    // Every request through the global fetch is refused and recorded: the warm-up must use none.
    vi.stubGlobal("fetch", async (input: RequestInfo | URL) => {
      requests.push(String(input instanceof Request ? input.url : input));
      throw new Error("the warm-up reached the network");
    });
    await expect(warmUpSdk()).resolves.toBeUndefined();
    expect(requests).toEqual([]);
  });
});
