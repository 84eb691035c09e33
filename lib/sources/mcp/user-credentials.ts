import "server-only";
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { OAuthClientProvider, OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { z } from "zod";
import { ToolshedError } from "../../errors";
import type { McpServerConfig } from "./config";

/**
 * A person's own credential for an MCP server whose credentials are per person, as stored
 * (encrypted: db/queries/mcp-user-credentials.ts): the secret they entered, or what the gateway
 * keeps as their OAuth client at the server's authorization server.
 */
export interface McpUserSecrets {
  secret?: string;
  oauth?: McpOAuthState;
}

/** Stored as the SDK hands them over (their `issuer` included: the SDK never presents them to another authorization server). */
export interface McpOAuthState {
  client?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  verifier?: string;
  /** The sign-in under way: the `state` its callback must bring back, and until when (epoch ms). */
  pending?: { state: string; expiresAt: number };
  /** The authorization server discovery found: the `iss` its answers must name (RFC 9207), and whether it says it always names one. */
  authorizationServer?: { issuer: string; sendsIss: boolean };
}

/**
 * A secret a person enters: it goes into one header or environment variable, so one line without
 * control characters (which both refuse with an error that quotes the value).
 */
export const PersonalSecretSchema = z
  .string()
  .min(1, "Enter the secret.")
  .max(10_000)
  .refine((value) => !/[\r\n]/.test(value), "A secret is one line.")
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  .refine((value) => !/[\u0000-\u001f\u007f]/.test(value), "A secret has no control characters (such as tabs or NUL).");

/** How long a person has to finish signing in at the server's authorization server. */
const SIGN_IN_MS = 10 * 60_000;

/** A connection key of one person's own to a server (`catalog/server/person`): never shared with anyone else. */
export const personalKey = (serverKey: string, userId: string) => `${serverKey}/${userId}`;

/**
 * The configuration a person's calls connect with: the server's, with their own secret where it
 * says (never a shared one). It has no credentials mode left: the connection carries one person's
 * credential as a shared server's carries its own.
 */
export function withPersonalSecret(config: McpServerConfig, secret: string): McpServerConfig {
  if (config.transport === "stdio") {
    if (config.credentials?.mode !== "per-user-secret") return config;
    return { ...config, credentials: undefined, env: { ...config.env, [config.credentials.env]: secret } };
  }
  if (config.credentials?.mode !== "per-user-secret") return config;
  const { header, prefix = "" } = config.credentials;
  return { ...config, credentials: undefined, headers: { ...config.headers, [header]: `${prefix}${secret}` } };
}

/** Where the person's OAuth state is read and written: their row of the server (the services bind it to the database). */
export interface McpOAuthStore {
  read(): Promise<McpOAuthState>;
  /** Writes the state; `connected` when it now holds tokens calls can use. */
  write(state: McpOAuthState, connected: boolean): Promise<void>;
}

/** A call of a person who must sign in at the server's authorization server again: their tokens are gone or refused. */
class McpSignInNeeded extends ToolshedError {
  constructor(readonly server: string) {
    super("unauthorized", `Your sign-in at the MCP server "${server}" is missing or no longer accepted.`);
    this.name = "McpSignInNeeded";
  }
}

/**
 * The gateway as one person's OAuth client of an MCP server (the SDK's OAuthClientProvider): its
 * registration, PKCE verifier and tokens live in the person's stored state, so the SDK's `auth()`
 * discovers the authorization server, registers, exchanges and refreshes for that person alone.
 * `interactive` only when the person is starting a sign-in: for a call, a sign-in the SDK would
 * start instead (no tokens, or refused ones) fails the call with McpSignInNeeded.
 */
export class PersonalOAuthProvider implements OAuthClientProvider {
  /** Where the person's browser goes to sign in, once `auth()` asked for it. */
  authorizationUrl: URL | undefined;

  constructor(
    private readonly store: McpOAuthStore,
    private readonly server: string,
    private readonly callbackUrl: string,
    private readonly interactive: boolean,
  ) {}

  get redirectUrl(): string {
    return this.callbackUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return { client_name: "Toolshed", redirect_uris: [this.callbackUrl], grant_types: ["authorization_code", "refresh_token"], response_types: ["code"] };
  }

  async state(): Promise<string> {
    if (!this.interactive) {
      // The SDK starts a new sign-in only when the person's tokens are no good (refused, not refreshable): they are forgotten, and the person connects again.
      await this.invalidateCredentials("tokens");
      throw new McpSignInNeeded(this.server);
    }
    const state = randomBytes(32).toString("base64url");
    await this.update({ pending: { state, expiresAt: Date.now() + SIGN_IN_MS } });
    return state;
  }

  /** Kept so that the callback can tell this authorization server's answer from another's (a mix-up attack, RFC 9207). */
  async saveDiscoveryState({ authorizationServerUrl, authorizationServerMetadata }: OAuthDiscoveryState) {
    const sendsIss = (authorizationServerMetadata as { authorization_response_iss_parameter_supported?: unknown } | undefined)
      ?.authorization_response_iss_parameter_supported;
    await this.update({ authorizationServer: { issuer: authorizationServerMetadata?.issuer ?? authorizationServerUrl, sendsIss: sendsIss === true } });
  }

  async clientInformation() {
    return (await this.store.read()).client;
  }

  async saveClientInformation(client: OAuthClientInformationMixed) {
    await this.update({ client });
  }

  async tokens() {
    return (await this.store.read()).tokens;
  }

  async saveTokens(tokens: OAuthTokens) {
    const current = await this.store.read();
    await this.store.write({ ...current, tokens, verifier: undefined, pending: undefined }, true);
  }

  redirectToAuthorization(url: URL) {
    if (!this.interactive) throw new McpSignInNeeded(this.server);
    this.authorizationUrl = url;
  }

  async saveCodeVerifier(verifier: string) {
    await this.update({ verifier });
  }

  async codeVerifier() {
    const { verifier } = await this.store.read();
    if (!verifier) throw new ToolshedError("bad_request", `No sign-in at the MCP server "${this.server}" is under way: start it again.`);
    return verifier;
  }

  /** The SDK found them refused (e.g. a refresh token revoked): the person signs in again. */
  async invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery") {
    const current = await this.store.read();
    if (scope === "all") await this.store.write({}, false);
    else if (scope === "client") await this.store.write({ ...current, client: undefined }, current.tokens !== undefined);
    else if (scope === "tokens") await this.store.write({ ...current, tokens: undefined }, false);
    else if (scope === "verifier") await this.store.write({ ...current, verifier: undefined }, current.tokens !== undefined);
  }

  private async update(change: Partial<McpOAuthState>) {
    const current = await this.store.read();
    await this.store.write({ ...current, ...change }, current.tokens !== undefined);
  }
}

/** Whether the `state` a callback brought is the person's sign-in under way, still in time: anything else is another's, or forged. */
export function isPendingSignIn(state: McpOAuthState, returned: string, now = Date.now()): boolean {
  const pending = state.pending;
  if (!pending || pending.expiresAt < now) return false;
  const [expected, given] = [Buffer.from(pending.state), Buffer.from(returned)];
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/**
 * Whether an authorization answer's `iss` (RFC 9207) fits the authorization server the sign-in
 * went to: the same issuer when it names one, and one named when that server says it always does.
 * An answer that names an issuer discovery never saw is another server's.
 */
export function isAnswerFromIssuer(state: McpOAuthState, iss: string | undefined): boolean {
  const expected = state.authorizationServer;
  if (iss === undefined) return !expected?.sendsIss;
  return expected !== undefined && expected.issuer === iss;
}
