import "server-only";
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { deriveKey } from "./key";

const VERSION = "v1";
const ALGORITHM = "aes-256-gcm";
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Binds a blob to its format version: it cannot be passed off as another version's. */
const AAD = Buffer.from(`toolshed-secret-${VERSION}`);
const PURPOSE = "stored-secrets-v1";

/** AES-256-GCM with a fresh random IV: `v1.<iv>.<tag>.<ciphertext>`, each part base64url. */
export function encryptSecret(plaintext: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, deriveKey(PURPOSE), iv);
  cipher.setAAD(AAD);
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), ciphertext].map((part) => (typeof part === "string" ? part : part.toString("base64url"))).join(".");
}

/** The plaintext of an `encryptSecret` blob; a blob that was altered, truncated or made with another key throws. */
export function decryptSecret(blob: string): string {
  const parts = blob.split(".");
  if (parts.length !== 4 || parts[0] !== VERSION) {
    throw new Error(`Not an encrypted secret of a known format (expected ${VERSION}.<iv>.<tag>.<ciphertext>).`);
  }
  const [iv, tag, ciphertext] = parts.slice(1).map((part) => Buffer.from(part, "base64url"));
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new Error("An encrypted secret is malformed: its IV or tag has the wrong length.");
  try {
    const decipher = createDecipheriv(ALGORITHM, deriveKey(PURPOSE), iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(AAD);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString("utf8");
  } catch {
    throw new Error("An encrypted secret could not be decrypted: it was altered, or encrypted with another key (check TOOLSHED_SECRET_KEY or the key file).");
  }
}
