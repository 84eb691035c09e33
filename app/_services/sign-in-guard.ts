import "server-only";
import { APIError } from "better-auth/api";
import { getDb } from "@/db/client";
import { clearSignInFailures, findSignInFailures, recordSignInFailure } from "@/db/queries/sign-in-failures";
import { addressKey, CLIENT_ADDRESS_HEADER, clientAddress, TRUSTED_PROXIES_VARIABLE, trustedProxiesFrom } from "@/lib/auth/client-address";
import { ADDRESS_LOCKOUT, EMAIL_LOCKOUT, secondsLocked } from "@/lib/auth/lockout";
import { peerAddressOf } from "@/lib/auth/peer-address";
import { ToolshedError } from "@/lib/errors";
import { readBodyText } from "@/lib/http";
import { consumeRateLimit } from "./rate-limits";
import { getAuth } from "./auth";
import { authorizationErrorForBrowser } from "./oauth";

/**
 * Every way of signing in with a password goes through `guardSignIn`: per account (e-mail) and
 * per client address, a locked key or one over the per-minute `auth` limit is refused (429 with
 * Retry-After) before the password is looked at; a wrong password counts against both keys
 * (lib/auth/lockout), a right one clears the account's count (not the address's: one valid
 * account must not reset an attacker's address).
 */

/** Requests that did not come through our HTTP server (tests calling handlers) share this key. */
const UNKNOWN_ADDRESS = "unknown";

/** The client's address of a request: its socket's peer, or through trusted proxies X-Forwarded-For. */
export function clientAddressOf(headers: Headers): string | undefined {
  return clientAddress({
    forwardedFor: headers.get("x-forwarded-for"),
    peerAddress: peerAddressOf(headers),
    trustedProxies: trustedProxiesFrom(process.env[TRUSTED_PROXIES_VARIABLE]),
  });
}

/** A copy of `headers` for better-auth, with the client's address where it reads it, whatever the client sent there. */
function headersForAuth(headers: Headers): Headers {
  const copy = new Headers(headers);
  const address = clientAddressOf(headers);
  if (address) copy.set(CLIENT_ADDRESS_HEADER, address);
  else copy.delete(CLIENT_ADDRESS_HEADER);
  return copy;
}

type SignInOutcome = "succeeded" | "wrong_password" | "neither";

function tryAgainIn(seconds: number): string {
  return seconds < 120 ? `${seconds} s` : `${Math.ceil(seconds / 60)} min`;
}

function refuse(message: string, seconds: number): ToolshedError {
  return new ToolshedError("rate_limited", `${message}; try again in ${tryAgainIn(seconds)}.`, undefined, undefined, seconds);
}

/**
 * Runs one sign-in attempt for `email` (undefined when the request names none) under the
 * lockout and the per-minute limits, and records its outcome. `attempt` gets the headers to hand
 * to better-auth. Throws a `rate_limited` ToolshedError instead of attempting when refused.
 */
async function guardSignIn<T>(
  email: string | undefined,
  requestHeaders: Headers,
  attempt: (authHeaders: Headers) => Promise<{ outcome: SignInOutcome; value: T }>,
): Promise<T> {
  const db = getDb();
  const emailKey = email === undefined ? undefined : `email:${email.toLowerCase()}`;
  const address = clientAddressOf(requestHeaders);
  const addressKeyName = `address:${address ? addressKey(address) : UNKNOWN_ADDRESS}`;
  const now = new Date();
  const records = await findSignInFailures(db, emailKey ? [emailKey, addressKeyName] : [addressKeyName]);
  const lockedFor = Math.max(secondsLocked(emailKey ? records.get(emailKey) : undefined, now), secondsLocked(records.get(addressKeyName), now));
  if (lockedFor > 0) throw refuse("Too many wrong passwords: signing in is paused", lockedFor);
  for (const key of emailKey ? [emailKey, addressKeyName] : [addressKeyName]) {
    const verdict = await consumeRateLimit("auth", key);
    if (!verdict.ok) throw refuse("Too many sign-in attempts", verdict.retryAfterSeconds);
  }
  const { outcome, value } = await attempt(headersForAuth(requestHeaders));
  if (outcome === "wrong_password") {
    if (emailKey) await recordSignInFailure(db, emailKey, EMAIL_LOCKOUT);
    await recordSignInFailure(db, addressKeyName, ADDRESS_LOCKOUT);
  } else if (outcome === "succeeded" && emailKey) {
    await clearSignInFailures(db, emailKey);
  }
  return value;
}

/**
 * Signs in with e-mail and password through better-auth's API (the server actions' way; the
 * session cookie is set on the action's response). A wrong e-mail or password is a 401.
 * `createAccount`, for the forms that make the account first (setup, invitations), runs once
 * the attempt is allowed, so a refused one creates nothing.
 */
export async function signInWithPassword(
  credentials: { email: string; password: string },
  requestHeaders: Headers,
  createAccount?: () => Promise<void>,
): Promise<void> {
  const outcome = await guardSignIn(credentials.email, requestHeaders, async (headers) => {
    await createAccount?.();
    try {
      await getAuth().api.signInEmail({ body: { email: credentials.email, password: credentials.password }, headers });
      return { outcome: "succeeded", value: "succeeded" } as const;
    } catch (error) {
      if (!(error instanceof APIError)) throw error;
      const outcome = error.statusCode === 401 ? "wrong_password" : "neither";
      return { outcome, value: outcome };
    }
  });
  if (outcome !== "succeeded") throw new ToolshedError("unauthorized", "Wrong e-mail or password.", "password");
}

/** better-auth's e-mail sign-in endpoint path under the app (after trailing slashes, as better-auth compares). */
const PASSWORD_SIGN_IN_PATH = "/api/auth/sign-in/email";
/** A sign-in body is an e-mail and a password: anything much larger is no sign-in. */
const SIGN_IN_BODY_LIMIT = 16 * 1024;

function emailIn(body: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    const email = (parsed as { email?: unknown } | null)?.email;
    return typeof email === "string" ? email : undefined;
  } catch {
    return undefined;
  }
}

/** better-auth's answer without the session token it repeats in the JSON (the cookie carries the session). */
async function withoutToken(response: Response): Promise<Response> {
  if (!response.headers.get("content-type")?.includes("application/json")) return response;
  const body = (await response.json()) as Record<string, unknown>;
  delete body.token;
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return Response.json(body, { status: response.status, statusText: response.statusText, headers });
}

async function passwordSignIn(request: Request): Promise<Response> {
  try {
    const body = await readBodyText(request, SIGN_IN_BODY_LIMIT);
    return await guardSignIn(emailIn(body), request.headers, async (headers) => {
      // The body as read (and re-encoded): its length is the new body's, not the one declared.
      headers.delete("content-length");
      const response = await getAuth().handler(new Request(request.url, { method: request.method, headers, body }));
      const outcome = response.status === 401 ? "wrong_password" : response.ok ? "succeeded" : "neither";
      return { outcome, value: outcome === "succeeded" ? await withoutToken(response) : response };
    });
  } catch (error) {
    if (error instanceof ToolshedError) return error.toResponse();
    throw error;
  }
}

/** better-auth's own endpoints (/api/auth/*), with its password sign-in guarded like ours. */
export async function handleAuthRequest(request: Request): Promise<Response> {
  const path = new URL(request.url).pathname.replace(/\/+$/, "");
  if (request.method === "POST" && path === PASSWORD_SIGN_IN_PATH) return passwordSignIn(request);
  return authorizationErrorForBrowser(request, await getAuth().handler(new Request(request, { headers: headersForAuth(request.headers) })));
}
