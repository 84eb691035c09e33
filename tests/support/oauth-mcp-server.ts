import { randomUUID } from "node:crypto";
import type { IncomingMessage, Server as HttpServer, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { InvalidGrantError, InvalidTokenError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { requireBearerAuth } from "@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js";
import type { AuthorizationParams, OAuthServerProvider } from "@modelcontextprotocol/sdk/server/auth/provider.js";
import { getOAuthProtectedResourceMetadataUrl, mcpAuthRouter } from "@modelcontextprotocol/sdk/server/auth/router.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import { createMcpExpressApp } from "@modelcontextprotocol/sdk/server/express.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { OAuthClientInformationFull, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";

/** What the test double's authorization server keeps: its clients, its codes waiting for exchange, its live tokens. */
class ApproveEveryoneProvider implements OAuthServerProvider {
  readonly clients = new Map<string, OAuthClientInformationFull>();
  private readonly codes = new Map<string, { clientId: string; challenge: string }>();
  /** Every access token issued and still valid, with the client it was issued to. */
  readonly tokens = new Map<string, string>();
  readonly refreshTokens = new Map<string, string>();

  get clientsStore() {
    return {
      getClient: (clientId: string) => this.clients.get(clientId),
      registerClient: (client: Omit<OAuthClientInformationFull, "client_id" | "client_id_issued_at">) => {
        const registered = { ...client, client_id: randomUUID(), client_id_issued_at: Math.floor(Date.now() / 1000) };
        this.clients.set(registered.client_id, registered);
        return registered;
      },
    };
  }

  /** No sign-in page: whoever opens the authorization URL is sent straight back with a code. */
  async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: ServerResponse & { redirect(url: string): void }) {
    const code = randomUUID();
    this.codes.set(code, { clientId: client.client_id, challenge: params.codeChallenge });
    const back = new URL(params.redirectUri);
    back.searchParams.set("code", code);
    if (params.state) back.searchParams.set("state", params.state);
    res.redirect(back.href);
  }

  async challengeForAuthorizationCode(_client: OAuthClientInformationFull, code: string) {
    const entry = this.codes.get(code);
    if (!entry) throw new Error("Unknown code");
    return entry.challenge;
  }

  async exchangeAuthorizationCode(client: OAuthClientInformationFull, code: string): Promise<OAuthTokens> {
    if (this.codes.get(code)?.clientId !== client.client_id) throw new Error("This code is not this client's");
    this.codes.delete(code);
    return this.issue(client.client_id);
  }

  async exchangeRefreshToken(client: OAuthClientInformationFull, refreshToken: string): Promise<OAuthTokens> {
    if (this.refreshTokens.get(refreshToken) !== client.client_id) throw new InvalidGrantError("Unknown or revoked refresh token");
    this.refreshTokens.delete(refreshToken);
    return this.issue(client.client_id);
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const clientId = this.tokens.get(token);
    if (!clientId) throw new InvalidTokenError("Unknown or revoked token");
    return { token, clientId, scopes: [], expiresAt: Math.floor(Date.now() / 1000) + 3600 };
  }

  private issue(clientId: string): OAuthTokens {
    const [access, refresh] = [`access-${randomUUID()}`, `refresh-${randomUUID()}`];
    this.tokens.set(access, clientId);
    this.refreshTokens.set(refresh, clientId);
    return { access_token: access, token_type: "bearer", expires_in: 3600, refresh_token: refresh };
  }
}

/** What the test sees of the double: where it answers, the Authorization header of each tool call, and its authorization server. */
export interface OAuthMcpDouble {
  url: string;
  callHeaders: string[];
  provider: ApproveEveryoneProvider;
  close(): Promise<void>;
}

/**
 * A test double: an MCP server over Streamable HTTP that requires OAuth, with its own
 * authorization server built from the SDK's server-side helpers (mcpAuthRouter: metadata, dynamic
 * registration, authorize, token; requireBearerAuth on /mcp). Its authorization approves whoever
 * asks at once. Its one tool, `whoami`, records the Authorization header each call carried.
 */
export async function serveOAuthMcp(): Promise<OAuthMcpDouble> {
  const app = createMcpExpressApp();
  const provider = new ApproveEveryoneProvider();
  const callHeaders: string[] = [];
  const http: HttpServer = await new Promise((listening) => {
    const server = app.listen(0, "127.0.0.1", () => listening(server));
  });
  const base = new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}`);
  const mcpUrl = new URL("/mcp", base);
  app.use(mcpAuthRouter({ provider, issuerUrl: base, resourceServerUrl: mcpUrl }));
  const bearer = requireBearerAuth({ verifier: provider, resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl) });
  app.post("/mcp", bearer, async (req: IncomingMessage & { body: unknown; auth?: AuthInfo }, res: ServerResponse) => {
    const server = new McpServer({ name: "oauth-double", version: "1.0.0" });
    server.registerTool("whoami", { description: "Says which account called." }, () => {
      callHeaders.push(req.headers.authorization ?? "");
      return { content: [{ type: "text", text: `client ${req.auth?.clientId}` }] };
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on("close", () => void server.close());
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  return {
    url: mcpUrl.href,
    callHeaders,
    provider,
    close: () => new Promise((closed) => http.close(() => closed())),
  };
}
