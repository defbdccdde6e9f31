import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { lastFour, loadSecretKey, openSecret, sealSecret } from "@/lib/auth/secret-box";

describe("secret box", () => {
  const key = Buffer.alloc(32, 7);

  it("round-trips a key and never stores the plaintext", () => {
    const sealed = sealSecret(key, "sk-live-0123456789abcdef7f3a");
    expect(JSON.stringify(sealed)).not.toContain("0123456789abcdef");
    expect(openSecret(key, sealed)).toBe("sk-live-0123456789abcdef7f3a");
  });

  it("uses a fresh IV each time, so equal keys seal differently", () => {
    expect(sealSecret(key, "same").ciphertext).not.toBe(sealSecret(key, "same").ciphertext);
  });

  it("refuses a tampered ciphertext and a wrong key with a message that names the fix", () => {
    const sealed = sealSecret(key, "sk-secret");
    const flipped = Buffer.from(sealed.ciphertext, "base64");
    flipped[0] ^= 1;
    expect(() => openSecret(key, { ...sealed, ciphertext: flipped.toString("base64") })).toThrow(/Settings -> Keys/);
    expect(() => openSecret(Buffer.alloc(32, 8), sealed)).toThrow(/another PARALLAXR_SECRET_KEY/);
  });

  it("reads PARALLAXR_SECRET_KEY as hex or base64 and rejects the wrong length", () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "parallaxr-secret-"));
    expect(loadSecretKey({ env: { PARALLAXR_SECRET_KEY: "ab".repeat(32) }, dataDir })).toEqual(Buffer.alloc(32, 0xab));
    expect(loadSecretKey({ env: { PARALLAXR_SECRET_KEY: Buffer.alloc(32, 1).toString("base64") }, dataDir })).toEqual(Buffer.alloc(32, 1));
    expect(() => loadSecretKey({ env: { PARALLAXR_SECRET_KEY: "short" }, dataDir })).toThrow(/32 bytes/);
  });

  it("generates a key once into the data folder, readable by its owner only", () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "parallaxr-secret-"));
    const first = loadSecretKey({ env: {}, dataDir });
    expect(first).toHaveLength(32);
    expect(loadSecretKey({ env: {}, dataDir })).toEqual(first);
    const file = path.join(dataDir, "secret.key");
    expect(statSync(file).mode & 0o077).toBe(0);
    expect(Buffer.from(readFileSync(file, "utf8"), "base64")).toEqual(first);
  });

  it("shows only the last four characters", () => {
    expect(lastFour("sk-abcdef7f3a")).toBe("7f3a");
  });
});
