import { describe, expect, it } from "vitest";
import {
  checkBaseUrl,
  findPrivateAddress,
  isPrivateAddress,
  isPrivateHostname,
  normalizeBaseUrl,
  sameBaseUrl,
} from "@/lib/providers/base-url-policy";

const shared = { allowPrivate: false };
const local = { allowPrivate: true };

describe("checkBaseUrl", () => {
  it("takes public http(s) URLs and gives them back without trailing slashes", () => {
    expect(checkBaseUrl("https://api.openai.com/v1/", shared)).toEqual({ ok: true, url: "https://api.openai.com/v1" });
    expect(checkBaseUrl(" HTTPS://API.Example.COM:443/v1 ", shared)).toEqual({ ok: true, url: "https://api.example.com/v1" });
    expect(checkBaseUrl("http://8.8.8.8:8080", shared)).toEqual({ ok: true, url: "http://8.8.8.8:8080" });
  });

  it("refuses every scheme but http and https, whoever asks", () => {
    for (const url of [
      "file:///etc/passwd",
      "data:text/plain,hi",
      "ftp://example.com/",
      "gopher://example.com/",
      "javascript:alert(1)",
      "ws://example.com/",
    ]) {
      for (const policy of [shared, local]) expect(checkBaseUrl(url, policy), url).toMatchObject({ ok: false, rule: "scheme" });
    }
  });

  it("refuses a user name or password inside the URL, whoever asks", () => {
    for (const policy of [shared, local]) {
      expect(checkBaseUrl("https://user:secret@api.example.com/v1", policy)).toMatchObject({ ok: false, rule: "credentials" });
      expect(checkBaseUrl("https://sk-abc@api.example.com/v1", policy)).toMatchObject({ ok: false, rule: "credentials" });
    }
  });

  it("refuses what is not a URL", () => {
    expect(checkBaseUrl("localhost:11434", shared)).toMatchObject({ ok: false });
    expect(checkBaseUrl("not a url", local)).toMatchObject({ ok: false, rule: "malformed" });
  });

  const privateUrls = [
    "http://127.0.0.1:11434",
    "http://127.8.9.10/",
    "http://localhost:1234/v1",
    "http://LOCALHOST./v1",
    "http://app.localhost/",
    "http://[::1]:8080/v1",
    "http://[0:0:0:0:0:0:0:1]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[::ffff:169.254.169.254]/",
    "http://169.254.169.254/latest/meta-data/",
    "http://metadata.google.internal/computeMetadata/v1/",
    "http://10.1.2.3/v1",
    "http://172.16.0.1/",
    "http://172.31.255.254/",
    "http://192.168.1.10:1234/v1",
    "http://[fd12:3456::1]/",
    "http://[fc00::1]/",
    "http://[fe80::1]/",
    "http://0.0.0.0:8080/",
    "http://[::]/",
    "http://100.100.100.200/",
    // The URL parser reads these as 127.0.0.1: written otherwise, still loopback.
    "http://2130706433/",
    "http://0x7f.1/",
    "http://017700000001/",
    "http://ollama:11434",
    "http://printer.local/",
    "http://nas.home.arpa/",
  ];

  it("refuses loopback, private, link-local and local names where private addresses are not allowed", () => {
    for (const url of privateUrls) {
      const verdict = checkBaseUrl(url, shared);
      expect(verdict, url).toMatchObject({
        ok: false,
        rule: "private",
        message: expect.stringContaining("PARALLAXR_ALLOW_PRIVATE_BASE_URLS=1"),
      });
    }
  });

  it("takes all of them for the local user (Ollama, LM Studio on this machine)", () => {
    for (const url of privateUrls) expect(checkBaseUrl(url, local), url).toMatchObject({ ok: true });
  });

  it("does not take public addresses next to the private ranges for private ones", () => {
    for (const url of [
      "http://172.15.255.255/",
      "http://172.32.0.1/",
      "http://169.253.1.1/",
      "http://11.0.0.1/",
      "http://[2001:4860:4860::8888]/",
      "http://[::ffff:8.8.8.8]/",
      "https://localhost.example.com/",
    ]) {
      expect(checkBaseUrl(url, shared), url).toMatchObject({ ok: true });
    }
  });
});

describe("address checks", () => {
  it("reads bare addresses of both families", () => {
    expect(isPrivateAddress("127.0.0.1")).toBe(true);
    expect(isPrivateAddress("::1")).toBe(true);
    expect(isPrivateAddress("fe80::1%eth0")).toBe(true);
    expect(isPrivateAddress("93.184.216.34")).toBe(false);
    expect(isPrivateAddress("not-an-address")).toBe(false);
    expect(isPrivateHostname("[::1]")).toBe(true);
    expect(isPrivateHostname("api.openai.com")).toBe(false);
  });

  it("finds a private address among a name's resolved addresses", () => {
    expect(findPrivateAddress(["93.184.216.34", "10.0.0.5"])).toBe("10.0.0.5");
    expect(findPrivateAddress(["93.184.216.34", "2606:2800:220:1::"])).toBeNull();
  });
});

describe("comparing base URLs", () => {
  it("treats case, default ports and trailing slashes as the same address, and paths and hosts as another", () => {
    expect(normalizeBaseUrl("HTTPS://api.openai.com:443/v1//")).toBe("https://api.openai.com/v1");
    expect(sameBaseUrl("https://api.openai.com/v1", "https://API.openai.com/v1/")).toBe(true);
    expect(sameBaseUrl("https://api.openai.com/v1", "https://api.openai.com/v2")).toBe(false);
    expect(sameBaseUrl("https://api.openai.com/v1", "https://api.openai.com.evil.test/v1")).toBe(false);
    expect(sameBaseUrl("http://api.openai.com/v1", "https://api.openai.com/v1")).toBe(false);
    expect(sameBaseUrl(null, null)).toBe(true);
    expect(sameBaseUrl(null, "https://api.openai.com/v1")).toBe(false);
  });
});
