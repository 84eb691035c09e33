import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { decryptSecret, deriveKey, encryptSecret, getSecretKey, parseSecretKey } from "@/lib/secrets";

const scratch = () => mkdtempSync(path.join(os.tmpdir(), "toolshed-key-"));

/** The blob with one character of part `index` (1 = IV, 2 = tag, 3 = ciphertext) changed. */
function tampered(blob: string, index: number): string {
  const parts = blob.split(".");
  const part = parts[index];
  parts[index] = `${part[0] === "A" ? "B" : "A"}${part.slice(1)}`;
  return parts.join(".");
}

describe("encryptSecret / decryptSecret", () => {
  it("round-trips any text, with a fresh IV each time, in the v1 format", () => {
    for (const text of ["", "s3cret", "ünïcödé 🔑", JSON.stringify({ env: { TOKEN: "x".repeat(5_000) } })]) {
      const blob = encryptSecret(text);
      expect(blob).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]*$/);
      expect(decryptSecret(blob)).toBe(text);
    }
    expect(encryptSecret("same")).not.toBe(encryptSecret("same"));
    expect(encryptSecret("canary-value")).not.toContain("canary");
  });

  it("detects tampering with the IV, the tag or the ciphertext, and refuses unknown formats", () => {
    const blob = encryptSecret("do not change me");
    for (const index of [1, 2, 3]) expect(() => decryptSecret(tampered(blob, index))).toThrow(/altered|another key|malformed/);
    expect(() => decryptSecret(blob.replace(/^v1\./, "v2."))).toThrow(/known format/);
    expect(() => decryptSecret("plain text")).toThrow(/known format/);
    expect(() => decryptSecret(blob.split(".").slice(0, 3).join("."))).toThrow(/known format/);
  });

  it("cannot be decrypted with another key", () => {
    const blob = encryptSecret("bound to the key");
    const saved = process.env.TOOLSHED_SECRET_KEY;
    process.env.TOOLSHED_SECRET_KEY = "11".repeat(32);
    try {
      expect(() => decryptSecret(blob)).toThrow(/another key/);
    } finally {
      process.env.TOOLSHED_SECRET_KEY = saved;
    }
    expect(decryptSecret(blob)).toBe("bound to the key");
  });
});

describe("the secret key", () => {
  it("takes TOOLSHED_SECRET_KEY as 64 hex characters or base64 (standard or URL-safe) of 32 bytes", () => {
    const bytes = Buffer.from(Array.from({ length: 32 }, (_, index) => index * 7 + 250));
    expect(parseSecretKey(bytes.toString("hex"))).toEqual(bytes);
    expect(parseSecretKey(bytes.toString("hex").toUpperCase())).toEqual(bytes);
    expect(parseSecretKey(bytes.toString("base64"))).toEqual(bytes);
    expect(parseSecretKey(bytes.toString("base64url"))).toEqual(bytes);
    expect(getSecretKey({ TOOLSHED_SECRET_KEY: bytes.toString("base64") })).toEqual(bytes);
  });

  it.each(["short", "00".repeat(31), "00".repeat(33), Buffer.alloc(16).toString("base64"), Buffer.alloc(33).toString("base64"), "é".repeat(44)])(
    "refuses %j with a clear error",
    (key) => {
      expect(parseSecretKey(key)).toBeUndefined();
      expect(() => getSecretKey({ TOOLSHED_SECRET_KEY: key })).toThrow(/TOOLSHED_SECRET_KEY is not a valid key: it must be 32 random bytes as base64/);
    },
  );

  it("creates the key file at first use with mode 0600, and reads the same key afterwards", () => {
    const file = path.join(scratch(), "nested", "secret.key");
    const key = getSecretKey({ TOOLSHED_SECRET_KEY_FILE: file });
    expect(key).toHaveLength(32);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(parseSecretKey(readFileSync(file, "utf8"))).toEqual(key);
    expect(getSecretKey({ TOOLSHED_SECRET_KEY_FILE: file })).toEqual(key);
  });

  it("reads an existing key file, and names a key file that holds no key", () => {
    const dir = scratch();
    const good = path.join(dir, "good.key");
    writeFileSync(good, `${"ab".repeat(32)}\n`, { mode: 0o600 });
    expect(getSecretKey({ TOOLSHED_SECRET_KEY_FILE: good })).toEqual(Buffer.from("ab".repeat(32), "hex"));
    const bad = path.join(dir, "bad.key");
    writeFileSync(bad, "not a key", { mode: 0o600 });
    expect(() => getSecretKey({ TOOLSHED_SECRET_KEY_FILE: bad })).toThrow(`The secret key file ${bad} does not hold a key`);
  });

  it("derives a distinct, stable key per purpose", () => {
    expect(deriveKey("auth")).toEqual(deriveKey("auth"));
    expect(deriveKey("auth")).toHaveLength(32);
    expect(deriveKey("auth")).not.toEqual(deriveKey("mcp"));
    expect(deriveKey("auth")).not.toEqual(getSecretKey());
  });
});
