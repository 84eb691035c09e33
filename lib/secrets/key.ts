import "server-only";
import { randomBytes, hkdfSync } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const KEY_BYTES = 32;
const DEFAULT_SECRET_KEY_FILE = "./data/secret.key";

type Env = Record<string, string | undefined>;

/** Keys already read, by where they came from: the key file is read (or created) once per process. */
const cache = new Map<string, Buffer>();

/** 64 hex characters, or base64 (standard or URL-safe, padding optional) of exactly 32 bytes; anything else is undefined. */
export function parseSecretKey(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, "hex");
  if (!/^[A-Za-z0-9+/_-]{43}={0,1}$/.test(trimmed)) return undefined;
  const key = Buffer.from(trimmed.replace(/-/g, "+").replace(/_/g, "/"), "base64");
  return key.length === KEY_BYTES ? key : undefined;
}

const HOW_TO_MAKE_ONE = "32 random bytes as base64 (`openssl rand -base64 32`) or as 64 hex characters (`openssl rand -hex 32`)";

function readKeyFile(file: string): Buffer {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const created = randomBytes(KEY_BYTES);
    try {
      // "wx": if another process created it meanwhile, its key wins and is read below.
      writeFileSync(file, `${created.toString("base64")}\n`, { mode: 0o600, flag: "wx" });
      return created;
    } catch (writeError) {
      if ((writeError as NodeJS.ErrnoException).code !== "EEXIST") throw writeError;
      text = readFileSync(file, "utf8");
    }
  }
  const key = parseSecretKey(text);
  if (!key) throw new Error(`The secret key file ${file} does not hold a key: it must contain ${HOW_TO_MAKE_ONE}.`);
  return key;
}

/**
 * The master key that encrypts stored secrets: `TOOLSHED_SECRET_KEY` when set, otherwise the key
 * file (`TOOLSHED_SECRET_KEY_FILE`, default ./data/secret.key), created with mode 0600 at first
 * use. A malformed key is an error at once rather than secrets nobody can decrypt later.
 */
export function getSecretKey(env: Env = process.env): Buffer {
  const fromEnv = env.TOOLSHED_SECRET_KEY;
  if (fromEnv !== undefined && fromEnv.trim() !== "") {
    const cached = cache.get(`env:${fromEnv}`);
    if (cached) return cached;
    const key = parseSecretKey(fromEnv);
    if (!key) throw new Error(`TOOLSHED_SECRET_KEY is not a valid key: it must be ${HOW_TO_MAKE_ONE}.`);
    cache.set(`env:${fromEnv}`, key);
    return key;
  }
  const file = path.resolve(env.TOOLSHED_SECRET_KEY_FILE || DEFAULT_SECRET_KEY_FILE);
  const cached = cache.get(`file:${file}`);
  if (cached) return cached;
  const key = readKeyFile(file);
  cache.set(`file:${file}`, key);
  return key;
}

/**
 * A 32-byte key for one purpose (e.g. "mcp-secrets", "auth"), derived from the master key with
 * HKDF-SHA256: each use gets its own key, and none of them reveals the master key or another.
 */
export function deriveKey(purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", getSecretKey(), "toolshed", purpose, KEY_BYTES));
}
