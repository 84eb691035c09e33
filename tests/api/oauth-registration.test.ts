import { describe, expect, it } from "vitest";
import { useEnv } from "../sources/helpers";
import { routeApiRequest } from "../support/api-routes";
import { APP_ORIGIN, useFreshDatabase } from "./helpers";

/**
 * Dynamic Client Registration (RFC 7591), which the MCP authorization spec keeps for older clients:
 * open only when the operator sets TOOLSHED_OAUTH_DCR=1 (tests/api/oauth-gateway.test.ts: off by default).
 */

useEnv({ TOOLSHED_OAUTH_DCR: "1" });

describe("with TOOLSHED_OAUTH_DCR=1", () => {
  it("advertises the registration endpoint, which registers a public client without a session and returns no secret", async () => {
    // A fresh database makes a fresh authorization server, which reads the variable.
    await useFreshDatabase();
    const metadata = (await (await routeApiRequest(new Request(`${APP_ORIGIN}/api/oauth/authorization-server`))).json()) as Record<string, unknown>;
    expect(metadata.registration_endpoint).toBe(`${APP_ORIGIN}/api/auth/oauth2/register`);
    const registered = await routeApiRequest(
      new Request(`${APP_ORIGIN}/api/auth/oauth2/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ client_name: "Old client", redirect_uris: ["http://127.0.0.1:8765/callback"], token_endpoint_auth_method: "none" }),
      }),
    );
    expect(registered.status).toBe(201);
    const client = (await registered.json()) as Record<string, unknown>;
    expect(client.client_id).toEqual(expect.any(String));
    expect(client.client_secret).toBeUndefined();
  });
});
