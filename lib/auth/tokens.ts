import { createHash, randomBytes } from "node:crypto";

/** API tokens are random, recognisable by their prefix, and stored only as a SHA-256 hash. */
const TOKEN_PREFIX = "tsk_";

export function newApiToken(): string {
  return TOKEN_PREFIX + randomBytes(32).toString("base64url");
}

/** Enough of the token for a person to tell tokens apart, nowhere near enough to use one. */
export function tokenDisplayPrefix(token: string): string {
  return token.slice(0, TOKEN_PREFIX.length + 6);
}

export function hashSecretToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** One-time links (setup, invitations) carry a random secret of the same strength. */
export function newLinkSecret(): string {
  return randomBytes(32).toString("base64url");
}
