import type { Environment } from "@/lib/environment";
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/** A secret sealed with AES-256-GCM: each part base64. */
export interface SealedSecret {
  ciphertext: string;
  iv: string;
  authTag: string;
}

/**
 * The 32-byte key that seals provider keys: PARALLAXR_SECRET_KEY (base64 or hex), or else a key
 * generated once into the data folder (readable by its owner only). Every process that reads
 * keys from one database must use the same one. A key of the wrong length or spelling is refused
 * with what to do, never used as it is (Node's base64 decoder skips characters it does not know,
 * so a mistyped key would otherwise become a different, shorter or weaker one).
 */
export function loadSecretKey({ env = process.env, dataDir }: { env?: Environment; dataDir: string }): Buffer {
  const configured = env.PARALLAXR_SECRET_KEY;
  if (configured) {
    const text = configured.trim();
    const key = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, "hex") : decodeBase64Key(text);
    if (typeof key === "string") {
      throw new Error(
        `PARALLAXR_SECRET_KEY must be 32 random bytes, as 64 hex digits or 44 base64 characters, but ${key}. ` +
          "Make one with `openssl rand -base64 32`. If provider keys were saved under another key, set that one instead, or save them again in Settings -> Keys.",
      );
    }
    return key;
  }
  const file = path.join(dataDir, "secret.key");
  if (existsSync(file)) {
    const key = decodeBase64Key(readFileSync(file, "utf8").trim());
    if (typeof key === "string") {
      throw new Error(
        `The key file ${file} must hold 32 bytes in base64 (44 characters), but ${key}. It seals the provider keys saved in Settings -> Keys. ` +
          `Put the original file back if you have it; otherwise delete ${file} (a new key is made at the next start) and save your provider keys again.`,
      );
    }
    return key;
  }
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, key.toString("base64"), { mode: 0o600 });
  chmodSync(file, 0o600);
  return key;
}

/** The 32 bytes a base64 text spells, or what is wrong with it (the end of a sentence). */
function decodeBase64Key(text: string): Buffer | string {
  if (text === "") return "it is empty";
  // Standard or URL-safe alphabet, padded or not; anything else would be skipped by Buffer.from.
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text) && !/^[A-Za-z0-9_-]+={0,2}$/.test(text)) return "it is not base64 (or hex)";
  const key = Buffer.from(text, text.includes("-") || text.includes("_") ? "base64url" : "base64");
  if (key.length !== 32) return `it decodes to ${key.length} bytes`;
  return key;
}

/** Seals plaintext with key; a fresh 12-byte IV every time. */
export function sealSecret(key: Buffer, plaintext: string): SealedSecret {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return { ciphertext: ciphertext.toString("base64"), iv: iv.toString("base64"), authTag: cipher.getAuthTag().toString("base64") };
}

/** Opens a sealed secret; throws when it was sealed with another key or tampered with. */
export function openSecret(key: Buffer, sealed: SealedSecret): string {
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(sealed.iv, "base64"));
  decipher.setAuthTag(Buffer.from(sealed.authTag, "base64"));
  try {
    return Buffer.concat([decipher.update(Buffer.from(sealed.ciphertext, "base64")), decipher.final()]).toString("utf8");
  } catch {
    throw new Error(
      "A stored provider key cannot be decrypted: it was saved with another PARALLAXR_SECRET_KEY. Save the key again in Settings -> Keys.",
    );
  }
}

/** The last four characters of a secret, the only part ever shown. */
export function lastFour(secret: string): string {
  return secret.slice(-4);
}
