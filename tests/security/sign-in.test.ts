import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createPasswordUser } from "@/app/_services/auth";
import { clientAddressOf, signInWithPassword } from "@/app/_services/sign-in-guard";
import type { Db } from "@/db/client";
import { findSignInFailures } from "@/db/queries/sign-in-failures";
import { PEER_ADDRESS_HEADER, peerAddressHeaderValue } from "@/lib/auth/peer-address";
import { ToolshedError } from "@/lib/errors";
import { APP_ORIGIN, useFreshDatabase } from "../api/helpers";
import { routeApiRequest } from "../support/api-routes";
import { startToolshedHttpServer, type ToolshedHttpServer } from "../support/toolshed-http-server";

/**
 * Issue 21, defect 3 and two of the low ones: better-auth's sign-in limited per X-Forwarded-For,
 * which the client sets (40 wrong passwords with a new header each: 40 × 401, no 429, no
 * lockout); its JSON repeated the session token; a 429 had no Retry-After.
 */

const EMAIL = "ada@example.com";
const PASSWORD = "the right password";
let db: Db;
let server: ToolshedHttpServer;

beforeAll(async () => {
  server = await startToolshedHttpServer();
});
afterAll(() => server.close());

beforeEach(async () => {
  db = await useFreshDatabase();
  await createPasswordUser({ email: EMAIL, name: "Ada", password: PASSWORD });
});
afterEach(() => {
  vi.unstubAllEnvs();
});

let spoofed = 0;
/** An X-Forwarded-For no one has sent before. */
const newForwardedFor = () => `203.0.${Math.floor(++spoofed / 250)}.${spoofed % 250}`;

/** better-auth's sign-in endpoint over real HTTP, from 127.0.0.1. */
function signInOverHttp(body: { email: string; password: string }, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${server.url}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: APP_ORIGIN, "x-forwarded-for": newForwardedFor(), ...headers },
    body: JSON.stringify(body),
  });
}

/** The server action's way in, as a request from `peer` (whose own X-Forwarded-For is a new lie each time). */
async function signInAsAction(password: string, peer = "198.51.100.7"): Promise<ToolshedError | undefined> {
  const headers = new Headers({ "x-forwarded-for": newForwardedFor(), [PEER_ADDRESS_HEADER]: peerAddressHeaderValue(peer) });
  try {
    await signInWithPassword({ email: EMAIL, password }, headers);
    return undefined;
  } catch (error) {
    if (error instanceof ToolshedError) return error;
    throw error;
  }
}

describe("sign-in cannot be brute-forced", () => {
  it("better-auth's endpoint answers 429 with Retry-After long before 40 wrong passwords, each with a new X-Forwarded-For", async () => {
    const statuses: number[] = [];
    let refusal: Response | undefined;
    for (let attempt = 0; attempt < 40 && !refusal; attempt++) {
      const response = await signInOverHttp({ email: EMAIL, password: `guess ${attempt}` });
      statuses.push(response.status);
      if (response.status === 429) refusal = response;
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses).toHaveLength(6);
    expect(Number(refusal?.headers.get("retry-after"))).toBeGreaterThanOrEqual(25);
    expect(await refusal?.json()).toMatchObject({ error: { code: "rate_limited" } });
    // The right password now is refused too, unchecked.
    const right = await signInOverHttp({ email: EMAIL, password: PASSWORD });
    expect(right.status).toBe(429);
    expect(right.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(right.headers.get("set-cookie")).toBeNull();
  });

  it("the server actions' sign-in refuses the same way, and says when to try again", async () => {
    const outcomes: (string | undefined)[] = [];
    for (let attempt = 0; attempt < 40 && outcomes.at(-1) !== "rate_limited"; attempt++) outcomes.push((await signInAsAction(`guess ${attempt}`))?.code);
    expect(outcomes).toEqual([...Array(5).fill("unauthorized"), "rate_limited"]);
    const refusal = await signInAsAction(PASSWORD);
    expect(refusal?.code).toBe("rate_limited");
    expect(refusal?.retryAfterSeconds).toBeGreaterThanOrEqual(25);
    expect(refusal?.message).toMatch(/try again in \d+ s\./);
    expect(refusal?.toResponse().headers.get("retry-after")).toBe(String(refusal?.retryAfterSeconds));
  });

  it("the route and the server action count against one lockout, on the account whatever the address", async () => {
    for (let attempt = 0; attempt < 3; attempt++) expect((await signInOverHttp({ email: EMAIL, password: "guess" })).status).toBe(401);
    expect((await signInAsAction("guess", "198.51.100.8"))?.code).toBe("unauthorized");
    expect((await signInAsAction("guess", "198.51.100.9"))?.code).toBe("unauthorized");
    expect((await signInOverHttp({ email: EMAIL.toUpperCase(), password: PASSWORD })).status).toBe(429);
  });

  it("a right password clears the account's failures but not the address's", async () => {
    vi.stubEnv("TOOLSHED_RATE_LIMIT_AUTH", "0");
    for (let attempt = 0; attempt < 4; attempt++) expect((await signInAsAction("guess"))?.code).toBe("unauthorized");
    expect(await signInAsAction(PASSWORD)).toBeUndefined();
    const records = await findSignInFailures(db, [`email:${EMAIL}`, "address:198.51.100.7"]);
    expect(records.has(`email:${EMAIL}`)).toBe(false);
    expect(records.get("address:198.51.100.7")?.failures).toBe(4);
    // A person who mistypes now and then is never locked out.
    for (let round = 0; round < 3; round++) {
      for (let attempt = 0; attempt < 3; attempt++) expect((await signInAsAction("typo", `198.51.100.${20 + round}`))?.code).toBe("unauthorized");
      expect(await signInAsAction(PASSWORD, `198.51.100.${20 + round}`)).toBeUndefined();
    }
  });

  it("an address that tries many accounts is locked after 20 wrong passwords", async () => {
    vi.stubEnv("TOOLSHED_RATE_LIMIT_AUTH", "0");
    const codes: (string | undefined)[] = [];
    for (let attempt = 0; attempt < 25 && codes.at(-1) !== "rate_limited"; attempt++) {
      const headers = new Headers({ [PEER_ADDRESS_HEADER]: peerAddressHeaderValue("198.51.100.50") });
      const refusal = await signInWithPassword({ email: `person${attempt}@example.com`, password: "guess" }, headers).then(
        () => undefined,
        (error: ToolshedError) => error.code,
      );
      codes.push(refusal);
    }
    expect(codes).toEqual([...Array(20).fill("unauthorized"), "rate_limited"]);
  });
});

describe("the client's address", () => {
  it("is the socket's peer: X-Forwarded-For and a forged peer header are ignored unless TOOLSHED_TRUSTED_PROXIES names the peer", async () => {
    // Each attempt names a new account, so only the per-minute limit of the address can refuse.
    vi.stubEnv("TOOLSHED_RATE_LIMIT_AUTH", "2");
    const attempts = async (count: number, headers: () => Record<string, string> = () => ({})) => {
      const statuses: number[] = [];
      for (let attempt = 0; attempt < count; attempt++)
        statuses.push((await signInOverHttp({ email: `p${++spoofed}@example.com`, password: "guess" }, headers())).status);
      return statuses;
    };
    expect(await attempts(3, () => ({ [PEER_ADDRESS_HEADER]: `x ${newForwardedFor()}` }))).toEqual([401, 401, 429]);

    await useFreshDatabase();
    vi.stubEnv("TOOLSHED_TRUSTED_PROXIES", "10.0.0.0/8");
    expect(await attempts(3)).toEqual([401, 401, 429]);

    await useFreshDatabase();
    vi.stubEnv("TOOLSHED_TRUSTED_PROXIES", "10.0.0.0/8, 127.0.0.1");
    expect(await attempts(3)).toEqual([401, 401, 401]);
  });

  it("is unknown for a request that did not come through our server, whatever its headers say", () => {
    vi.stubEnv("TOOLSHED_TRUSTED_PROXIES", "0.0.0.0/0");
    expect(clientAddressOf(new Headers({ "x-forwarded-for": "203.0.113.9", [PEER_ADDRESS_HEADER]: "203.0.113.9" }))).toBeUndefined();
    expect(clientAddressOf(new Headers({ [PEER_ADDRESS_HEADER]: peerAddressHeaderValue("10.0.0.1"), "x-forwarded-for": "203.0.113.9" }))).toBe("203.0.113.9");
  });
});

describe("better-auth's endpoints", () => {
  it("sign-in answers with the session cookie and without the token in its JSON", async () => {
    const response = await signInOverHttp({ email: EMAIL, password: PASSWORD });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.user.email).toBe(EMAIL);
    expect(body).not.toHaveProperty("token");
    expect(JSON.stringify(body)).not.toContain(response.headers.get("set-cookie")?.split(";")[0].split("=")[1].split(".")[0]);
    expect(response.headers.get("set-cookie")).toMatch(/session_token=/);
  });

  it("that check a password other than sign-in are not served", async () => {
    for (const path of ["change-password", "verify-password", "delete-user", "sign-in/username"]) {
      const response = await routeApiRequest(
        new Request(`${APP_ORIGIN}/api/auth/${path}`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: APP_ORIGIN },
          body: JSON.stringify({ email: EMAIL, password: PASSWORD, currentPassword: PASSWORD, newPassword: "another password 1", name: "x" }),
        }),
      );
      expect([403, 404], path).toContain(response.status);
    }
  });
});
