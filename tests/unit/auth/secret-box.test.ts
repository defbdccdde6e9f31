import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
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
    expect(() => loadSecretKey({ env: { PARALLAXR_SECRET_KEY: "short" }, dataDir })).toThrow(
      /must be 32 random bytes.*decodes to 3 bytes.*openssl rand -base64 32/,
    );
    // 62 hex digits are no hex key, and as base64 they are 46 bytes
    expect(() => loadSecretKey({ env: { PARALLAXR_SECRET_KEY: "ab".repeat(31) }, dataDir })).toThrow(/decodes to 46 bytes/);
  });

  it("refuses a PARALLAXR_SECRET_KEY that base64 would decode only by skipping characters", () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "parallaxr-secret-"));
    const valid = Buffer.alloc(32, 1).toString("base64");
    const mistyped = `${valid.slice(0, 20)} !${valid.slice(20)}`;
    // Node's decoder skips the space and the "!", and would hand back 32 bytes of a key nobody chose
    expect(Buffer.from(mistyped, "base64")).toHaveLength(32);
    expect(() => loadSecretKey({ env: { PARALLAXR_SECRET_KEY: mistyped }, dataDir })).toThrow(/PARALLAXR_SECRET_KEY .*not base64/);
    // URL-safe base64 and surrounding whitespace are fine
    const urlSafe = Buffer.alloc(32, 0xfb).toString("base64url");
    expect(loadSecretKey({ env: { PARALLAXR_SECRET_KEY: ` ${urlSafe}\n` }, dataDir })).toEqual(Buffer.alloc(32, 0xfb));
  });

  it("refuses a secret.key that is not 32 bytes of base64, naming the file and what to do", () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "parallaxr-secret-"));
    const file = path.join(dataDir, "secret.key");
    for (const [content, problem] of [
      ["", /it is empty/],
      [Buffer.alloc(16, 9).toString("base64"), /decodes to 16 bytes/],
      ["not a key at all: ~~~", /not base64/],
    ] as const) {
      writeFileSync(file, content);
      const load = () => loadSecretKey({ env: {}, dataDir });
      expect(load, JSON.stringify(content)).toThrow(problem);
      expect(load).toThrow(new RegExp(`The key file ${file.replaceAll(/[.*+?^${}()|[\]\\/]/g, "\\$&")} must hold 32 bytes.*delete`));
      // the broken file is left as it was, for the person to restore or delete
      expect(readFileSync(file, "utf8")).toBe(content);
    }
    // a key written by hand with `openssl rand -base64 32 > secret.key` ends in a newline: fine
    writeFileSync(file, `${Buffer.alloc(32, 5).toString("base64")}\n`);
    expect(loadSecretKey({ env: {}, dataDir })).toEqual(Buffer.alloc(32, 5));
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
