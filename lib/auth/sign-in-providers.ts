import "server-only";

/**
 * Sign-in methods besides e-mail and password, configured by environment: GitHub
 * (`GITHUB_CLIENT_ID`, `GITHUB_CLIENT_SECRET`) and any OpenID Connect provider
 * (`TOOLSHED_OIDC_ISSUER` or `TOOLSHED_OIDC_DISCOVERY_URL`, `TOOLSHED_OIDC_CLIENT_ID`,
 * `TOOLSHED_OIDC_CLIENT_SECRET`, optional `TOOLSHED_OIDC_NAME`). Either is used only when complete.
 */
interface OidcProviderConfig {
  providerId: "oidc";
  name: string;
  discoveryUrl: string;
  clientId: string;
  clientSecret: string;
  scopes: string[];
}

export interface SignInProviders {
  github?: { clientId: string; clientSecret: string };
  oidc?: OidcProviderConfig;
}

type Env = Record<string, string | undefined>;

export function signInProvidersFromEnv(env: Env = process.env): SignInProviders {
  const providers: SignInProviders = {};
  if (env.GITHUB_CLIENT_ID && env.GITHUB_CLIENT_SECRET) {
    providers.github = { clientId: env.GITHUB_CLIENT_ID, clientSecret: env.GITHUB_CLIENT_SECRET };
  }
  const issuer = env.TOOLSHED_OIDC_ISSUER?.replace(/\/+$/, "");
  const discoveryUrl = env.TOOLSHED_OIDC_DISCOVERY_URL || (issuer ? `${issuer}/.well-known/openid-configuration` : undefined);
  if (discoveryUrl && env.TOOLSHED_OIDC_CLIENT_ID && env.TOOLSHED_OIDC_CLIENT_SECRET) {
    new URL(discoveryUrl); // a malformed address is a configuration error at start, not at first sign-in
    providers.oidc = {
      providerId: "oidc",
      name: env.TOOLSHED_OIDC_NAME || "Single sign-on",
      discoveryUrl,
      clientId: env.TOOLSHED_OIDC_CLIENT_ID,
      clientSecret: env.TOOLSHED_OIDC_CLIENT_SECRET,
      scopes: ["openid", "email", "profile"],
    };
  }
  return providers;
}

/** What the sign-in page offers, without any secret. */
export function signInButtons(providers: SignInProviders): { id: "github" | "oidc"; label: string }[] {
  const buttons: { id: "github" | "oidc"; label: string }[] = [];
  if (providers.github) buttons.push({ id: "github", label: "Sign in with GitHub" });
  if (providers.oidc) buttons.push({ id: "oidc", label: `Sign in with ${providers.oidc.name}` });
  return buttons;
}
