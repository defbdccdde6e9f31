import { describe, expect, it } from "vitest";
import { isAllowedHost, readAccessConfig } from "@/lib/auth/access-config";
import { readBodyLimits } from "@/lib/server/body-limits.mjs";
import {
  checkContentType,
  checkCrossSite,
  checkHost,
  guardRequest,
  isJsonContentType,
  type GuardedRequest,
} from "@/lib/server/request-guard";

const local = readAccessConfig({});
const limits = readBodyLimits({});

function request(method: string, headers: Record<string, string>, pathname = "/api/v1/prompts", protocol = "http:"): GuardedRequest {
  return { method, pathname, protocol, headers: new Headers(headers) };
}

describe("Host check (DNS rebinding)", () => {
  it("serves loopback names on any port and refuses every other name with 421", () => {
    for (const host of ["127.0.0.1:3000", "localhost", "LOCALHOST:8080", "[::1]:3000", "app.localhost:3000", "127.9.9.9"]) {
      expect(checkHost(request("GET", { host }), local), host).toBeNull();
    }
    for (const host of [
      "rebind.attacker.example:3000",
      "attacker.example",
      "192.168.1.20:3000",
      "localhost.evil.example",
      "127.0.0.1.nip.io",
      "",
    ]) {
      const error = checkHost(request("GET", host ? { host } : {}), local);
      expect(error?.code, host).toBe("misdirected_request");
      expect(error?.message).toContain("PARALLAXR_ALLOWED_HOSTS");
      expect(error?.message).toContain("PARALLAXR_PUBLIC_URL");
    }
  });

  it("serves the public URL's host, allowed hosts (a port pins the port) and a specific bind address", () => {
    const config = readAccessConfig({
      HOST: "0.0.0.0",
      PARALLAXR_PUBLIC_URL: "https://parallaxr.example.com",
      PARALLAXR_ALLOWED_HOSTS: "box.lan, 10.0.0.5:3000",
    });
    expect(isAllowedHost("parallaxr.example.com", config)).toBe(true);
    expect(isAllowedHost("PARALLAXR.example.com:443", config)).toBe(true);
    expect(isAllowedHost("box.lan:3000", config)).toBe(true);
    expect(isAllowedHost("10.0.0.5:3000", config)).toBe(true);
    expect(isAllowedHost("10.0.0.5:4000", config)).toBe(false);
    expect(isAllowedHost("0.0.0.0:3000", config)).toBe(false);
    expect(isAllowedHost("evil.example.com", config)).toBe(false);
    expect(isAllowedHost("192.168.1.20:3000", readAccessConfig({ HOST: "192.168.1.20" }))).toBe(true);
    expect(isAllowedHost("user@127.0.0.1", config)).toBe(false);
  });
});

describe("cross-site check", () => {
  it("refuses a state change from another origin, another port or a null origin with 403", () => {
    for (const origin of ["http://evil.example", "http://127.0.0.1:3199", "https://127.0.0.1:3000", "null"]) {
      const error = checkCrossSite(request("POST", { host: "127.0.0.1:3000", origin }), local);
      expect(error?.code, origin).toBe("forbidden");
    }
  });

  it("refuses Sec-Fetch-Site cross-site and same-site, and passes same-origin and none", () => {
    expect(checkCrossSite(request("DELETE", { host: "127.0.0.1:3000", "sec-fetch-site": "cross-site" }), local)?.code).toBe("forbidden");
    expect(checkCrossSite(request("POST", { host: "127.0.0.1:3000", "sec-fetch-site": "same-site" }), local)?.code).toBe("forbidden");
    expect(
      checkCrossSite(request("POST", { host: "127.0.0.1:3000", "sec-fetch-site": "same-origin", origin: "http://127.0.0.1:3000" }), local),
    ).toBeNull();
    expect(checkCrossSite(request("POST", { host: "127.0.0.1:3000", "sec-fetch-site": "none" }), local)).toBeNull();
  });

  it("passes its own origin, the public URL's origin behind a proxy, and a request without browser headers", () => {
    expect(checkCrossSite(request("PATCH", { host: "localhost:3000", origin: "http://localhost:3000" }), local)).toBeNull();
    const behindProxy = readAccessConfig({ PARALLAXR_PUBLIC_URL: "https://parallaxr.example.com" });
    expect(checkCrossSite(request("POST", { host: "127.0.0.1:3000", origin: "https://parallaxr.example.com" }), behindProxy)).toBeNull();
    expect(checkCrossSite(request("POST", { host: "127.0.0.1:3000" }), local)).toBeNull();
  });

  it("leaves reads alone: only POST, PUT, PATCH and DELETE are checked", () => {
    expect(
      guardRequest(request("GET", { host: "127.0.0.1:3000", origin: "http://evil.example", "sec-fetch-site": "cross-site" }), {
        access: local,
        limits,
      }),
    ).toBeNull();
    expect(guardRequest(request("POST", { host: "127.0.0.1:3000", origin: "http://evil.example" }), { access: local, limits })?.code).toBe(
      "forbidden",
    );
  });
});

describe("Content-Type check", () => {
  it("needs application/json on a body, with at most a UTF-8 charset", () => {
    expect(isJsonContentType("application/json")).toBe(true);
    expect(isJsonContentType("Application/JSON; charset=UTF-8")).toBe(true);
    expect(isJsonContentType("application/json;charset=utf8")).toBe(true);
    for (const type of [
      null,
      "text/plain",
      "text/plain;charset=UTF-8",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "application/json; charset=latin1",
      "application/jsonp",
    ]) {
      expect(isJsonContentType(type), String(type)).toBe(false);
    }
    const error = checkContentType(request("POST", { "content-type": "text/plain", "content-length": "20" }));
    expect(error?.code).toBe("unsupported_media_type");
    expect(error?.message).toContain("application/json");
    expect(checkContentType(request("POST", { "content-type": "text/plain", "transfer-encoding": "chunked" }))?.code).toBe(
      "unsupported_media_type",
    );
  });

  it("lets a bodiless request through without one (pause, cancel, DELETE)", () => {
    expect(checkContentType(request("POST", {}))).toBeNull();
    expect(checkContentType(request("POST", { "content-length": "0", "content-type": "text/plain" }))).toBeNull();
  });
});

describe("the whole gate", () => {
  it("checks in order: Host, then Origin, then Content-Type, then a declared length", () => {
    const config = { access: local, limits };
    expect(
      guardRequest(
        request("POST", { host: "evil.example", origin: "http://evil.example", "content-type": "text/plain", "content-length": "5" }),
        config,
      )?.code,
    ).toBe("misdirected_request");
    expect(
      guardRequest(
        request("POST", { host: "127.0.0.1", origin: "http://evil.example", "content-type": "text/plain", "content-length": "5" }),
        config,
      )?.code,
    ).toBe("forbidden");
    expect(guardRequest(request("POST", { host: "127.0.0.1", "content-type": "text/plain", "content-length": "5" }), config)?.code).toBe(
      "unsupported_media_type",
    );
    const tooLong = guardRequest(
      request("POST", { host: "127.0.0.1", "content-type": "application/json", "content-length": String(9 * 1024 * 1024) }),
      config,
    );
    expect(tooLong?.code).toBe("payload_too_large");
    expect(tooLong?.message).toContain("8 MB (8,388,608 bytes)");
    expect(tooLong?.message).toContain("POST /api/v1/prompts");
    // the dataset upload takes 128 MB
    expect(
      guardRequest(
        request(
          "POST",
          { host: "127.0.0.1", "content-type": "application/json", "content-length": String(60 * 1024 * 1024) },
          "/api/v1/datasets",
        ),
        config,
      ),
    ).toBeNull();
  });
});
