import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";

/**
 * Test double of an MCP client application's OAuth state, for the MCP SDK's OAuth client: what it
 * keeps between the steps of the flow (its registration, tokens and PKCE verifier), and the URL it
 * would send the person's browser to, kept for the test to visit instead.
 */
export class ClientApplicationState implements OAuthClientProvider {
  authorizationUrl: URL | undefined;
  private saved: OAuthTokens | undefined;
  private verifier = "";

  /** `information`: a client registered beforehand; without it the SDK registers one (Dynamic Client Registration). */
  constructor(
    readonly redirectUrl: string,
    readonly clientMetadata: OAuthClientMetadata,
    private information?: OAuthClientInformationMixed,
  ) {}
  clientInformation() {
    return this.information;
  }
  saveClientInformation(information: OAuthClientInformationMixed) {
    this.information = information;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}
