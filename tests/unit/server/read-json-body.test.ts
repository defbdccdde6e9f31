import { describe, expect, it } from "vitest";
import { bodyLimitFor, describeBytes, proxyBufferBytes, readBodyLimits } from "@/lib/server/body-limits.mjs";
import { HttpError } from "@/lib/server/http-errors";
import { jsonDepthExceeds } from "@/lib/core/json-depth-exceeds";
import { readJsonBody } from "@/lib/server/read-json-body";

const limit = { bytes: 1024, route: "POST /api/v1/prompts", setting: "PARALLAXR_MAX_BODY_MB" } as const;

/** A stream of `chunks` chunks of 256 bytes that counts how many were pulled. */
function countingStream(chunks: number) {
  const state = { pulled: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (state.pulled >= chunks) return controller.close();
      state.pulled += 1;
      controller.enqueue(new Uint8Array(256).fill(32));
    },
  });
  return { stream, state };
}

async function errorOf(promise: Promise<unknown>): Promise<HttpError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
  throw new Error("expected an HttpError");
}

describe("readJsonBody", () => {
  it("reads JSON within the limit", async () => {
    const request = new Request("http://x/api/v1/prompts", { method: "POST", body: JSON.stringify({ name: "é", text: "x" }) });
    expect(await readJsonBody(request, limit)).toEqual({ name: "é", text: "x" });
  });

  it("stops reading a body without a length once it passes the limit (413 naming limit and route)", async () => {
    const { stream, state } = countingStream(1_000_000); // 256 MB if read to the end
    const request = new Request("http://x/api/v1/prompts", { method: "POST", body: stream, duplex: "half" } as RequestInit);
    const error = await errorOf(readJsonBody(request, limit));
    expect(error.code).toBe("payload_too_large");
    expect(error.message).toContain("1 KB (1,024 bytes)");
    expect(error.message).toContain("POST /api/v1/prompts");
    expect(error.message).toContain("PARALLAXR_MAX_BODY_MB");
    expect(state.pulled).toBeLessThan(10);
  });

  it("refuses a Content-Length over the limit before reading", async () => {
    const { stream, state } = countingStream(10);
    const request = new Request("http://x/", {
      method: "POST",
      body: stream,
      duplex: "half",
      headers: { "content-length": "5000" },
    } as RequestInit);
    expect((await errorOf(readJsonBody(request, limit))).code).toBe("payload_too_large");
    expect(state.pulled).toBeLessThanOrEqual(1);
  });

  it("answers 400 for invalid JSON, invalid UTF-8, no body and nesting deeper than 32", async () => {
    expect((await errorOf(readJsonBody(new Request("http://x/", { method: "POST", body: "{oops" }), limit))).message).toContain(
      "not valid JSON",
    );
    expect(
      (await errorOf(readJsonBody(new Request("http://x/", { method: "POST", body: new Uint8Array([0x7b, 0xff, 0x7d]) }), limit))).message,
    ).toContain("UTF-8");
    expect((await errorOf(readJsonBody(new Request("http://x/", { method: "POST" }), limit))).code).toBe("bad_request");
    const deep = "[".repeat(200_000) + "]".repeat(200_000);
    const error = await errorOf(readJsonBody(new Request("http://x/", { method: "POST", body: deep }), { ...limit, bytes: 1_000_000 }));
    expect(error.code).toBe("bad_request");
    expect(error.message).toContain("32 levels");
  });
});

describe("jsonDepthExceeds", () => {
  it("counts objects and arrays, not scalars, and survives 200,000 levels", () => {
    expect(jsonDepthExceeds(1, 0)).toBe(false);
    expect(jsonDepthExceeds({}, 1)).toBe(false);
    expect(jsonDepthExceeds({ a: [1] }, 1)).toBe(true);
    expect(jsonDepthExceeds({ a: [1] }, 2)).toBe(false);
    const deep = JSON.parse('{"a":'.repeat(200_000) + "1" + "}".repeat(200_000));
    expect(jsonDepthExceeds(deep, 10)).toBe(true);
  });
});

describe("body limits", () => {
  it("are 8 MB by default and 128 MB for dataset and run uploads, and configurable", () => {
    const limits = readBodyLimits({});
    expect(bodyLimitFor({ method: "POST", pathname: "/api/v1/prompts" }, limits).bytes).toBe(8 * 1024 * 1024);
    expect(bodyLimitFor({ method: "POST", pathname: "/api/v1/datasets" }, limits).bytes).toBe(128 * 1024 * 1024);
    expect(bodyLimitFor({ method: "post", pathname: "/api/v1/runs/" }, limits).bytes).toBe(128 * 1024 * 1024);
    expect(bodyLimitFor({ method: "PATCH", pathname: "/api/v1/runs" }, limits).bytes).toBe(8 * 1024 * 1024);
    const configured = readBodyLimits({ PARALLAXR_MAX_BODY_MB: "2", PARALLAXR_MAX_UPLOAD_MB: "512" });
    expect(configured).toEqual({ defaultBytes: 2 * 1024 * 1024, uploadBytes: 512 * 1024 * 1024 });
    expect(() => readBodyLimits({ PARALLAXR_MAX_BODY_MB: "lots" })).toThrow(/PARALLAXR_MAX_BODY_MB/);
  });

  it("let Next.js buffer 1 MB more than the largest, so it never cuts a body under a limit", () => {
    expect(proxyBufferBytes(readBodyLimits({}))).toBe(129 * 1024 * 1024);
    expect(describeBytes(8 * 1024 * 1024)).toBe("8 MB (8,388,608 bytes)");
  });
});
