import { createHash, randomBytes } from "node:crypto";
import { beforeEach, describe, expect, it, vi } from "vitest";
import * as catalogsRoute from "@/app/api/catalogs/route";
import type { Db } from "@/db/client";
import { findOAuthClientLabel } from "@/db/queries/oauth";
import { routeApiRequest } from "../support/api-routes";
import { APP_ORIGIN, jsonRequest, useFreshDatabase } from "./helpers";
import { signedInAs } from "./sessions";

/**
 * An MCP client known only by its Client ID Metadata Document (CIMD, the MCP authorization spec's
 * way): its client_id is the document's HTTPS URL, which the authorization server fetches. The
 * fetch (in production resolve-once, public addresses only, no redirects) is replaced here by one
 * that serves the document from memory.
 */

const CLIENT_ID = "https://agent.example.com/oauth/client.json";
const REDIRECT_URI = "http://127.0.0.1:8765/callback";
const documents = new Map<string, unknown>();
const fetched: string[] = [];

vi.mock("@better-auth/cimd/node", () => ({
  fetchClientMetadataResource: async (input: RequestInfo | URL) => {
    const url = String(input);
    fetched.push(url);
    const document = documents.get(url);
    return document === undefined ? new Response("not found", { status: 404 }) : Response.json(document);
  },
}));

let db: Db;
let cookie: string;

beforeEach(async () => {
  db = await useFreshDatabase();
  expect((await catalogsRoute.POST(jsonRequest("POST", { name: "Team" }))).status).toBe(201);
  cookie = await signedInAs(db, "ada@example.com", "viewer");
  documents.clear();
  fetched.length = 0;
});

function authorizeUrl(clientId: string, redirectUri = REDIRECT_URI): string {
  const query = new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    redirect_uri: redirectUri,
    scope: "tools:read",
    state: "s",
    code_challenge: createHash("sha256").update(randomBytes(32).toString("base64url")).digest("base64url"),
    code_challenge_method: "S256",
    resource: `${APP_ORIGIN}/api/catalogs/team/mcp`,
  });
  return `${APP_ORIGIN}/api/auth/oauth2/authorize?${query}`;
}

describe("a client known by its metadata document", () => {
  it("is fetched, registered as a public client, and reaches the consent page under its document's name", async () => {
    documents.set(CLIENT_ID, {
      client_id: CLIENT_ID,
      client_name: "Agent Example",
      redirect_uris: [REDIRECT_URI],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      application_type: "native",
    });
    const response = await routeApiRequest(new Request(authorizeUrl(CLIENT_ID), { headers: { cookie } }));
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get("location")!, APP_ORIGIN);
    expect(location.pathname).toBe("/oauth/consent");
    expect(location.searchParams.get("client_id")).toBe(CLIENT_ID);
    expect(fetched).toEqual([CLIENT_ID]);
    expect(await findOAuthClientLabel(db, CLIENT_ID)).toEqual({ name: "Agent Example", uri: null });
  });

  it("is refused when its document cannot be had, or lists another redirect URI than the one asked for", async () => {
    const missing = await routeApiRequest(new Request(authorizeUrl("https://agent.example.com/missing.json"), { headers: { cookie } }));
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ error: "invalid_client", error_description: "Metadata document fetch returned HTTP 404" });
    documents.set(CLIENT_ID, { client_id: CLIENT_ID, client_name: "Agent Example", redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: "none" });
    const elsewhere = await routeApiRequest(new Request(authorizeUrl(CLIENT_ID, "http://127.0.0.1:9999/steal"), { headers: { cookie } }));
    // Not sent back to the unlisted address (no open redirect): to Toolshed's error page.
    expect(elsewhere.status).toBe(302);
    expect(new URL(elsewhere.headers.get("location")!).pathname).toBe("/oauth/error");
    expect(new URL(elsewhere.headers.get("location")!).searchParams.get("error")).toBe("invalid_redirect");
  });
});
