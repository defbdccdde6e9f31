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
 * keys from one database must use the same one.
 */
export function loadSecretKey({ env = process.env, dataDir }: { env?: Environment; dataDir: string }): Buffer {
  const configured = env.PARALLAXR_SECRET_KEY;
  if (configured) {
    const key = /^[0-9a-f]{64}$/i.test(configured) ? Buffer.from(configured, "hex") : Buffer.from(configured, "base64");
    if (key.length !== 32) {
      throw new Error("PARALLAXR_SECRET_KEY must be 32 bytes, as 64 hex digits or base64 (openssl rand -base64 32).");
    }
    return key;
  }
  const file = path.join(dataDir, "secret.key");
  if (existsSync(file)) return Buffer.from(readFileSync(file, "utf8").trim(), "base64");
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, key.toString("base64"), { mode: 0o600 });
  chmodSync(file, 0o600);
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
