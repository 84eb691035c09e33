import { describe, expect, it } from "vitest";
import { configuredOrigins, crossSiteProblem, hostAllowed, publicOrigin } from "@/lib/auth/origin";
import { safeReturnPath } from "@/lib/auth/forms";
import { signInButtons, signInProvidersFromEnv } from "@/lib/auth/sign-in-providers";

const request = (method: string, headers: Record<string, string>) => ({ method, headers: new Headers(headers) });

describe("origins", () => {
  it("defaults to localhost:3000 and takes a comma-separated TOOLSHED_URL", () => {
    expect(configuredOrigins({})).toEqual(["http://localhost:3000"]);
    expect(configuredOrigins({ TOOLSHED_URL: "https://a.example.com/, http://127.0.0.1:3210" })).toEqual(["https://a.example.com", "http://127.0.0.1:3210"]);
    expect(publicOrigin({ TOOLSHED_URL: "https://a.example.com/x" })).toBe("https://a.example.com");
  });

  it("accepts only the configured hosts, port included", () => {
    const origins = ["http://localhost:3000"];
    expect(hostAllowed("localhost:3000", origins)).toBe(true);
    expect(hostAllowed("LOCALHOST:3000", origins)).toBe(true);
    expect(hostAllowed("localhost:3001", origins)).toBe(false);
    expect(hostAllowed("evil.example", origins)).toBe(false);
    expect(hostAllowed(null, origins)).toBe(false);
  });

  it("lets reads through and demands JSON from our own origin for writes", () => {
    const origins = ["http://localhost:3000"];
    expect(crossSiteProblem(request("GET", {}), origins)).toBeNull();
    expect(crossSiteProblem(request("POST", { "content-type": "application/json; charset=utf-8", origin: "http://localhost:3000" }), origins)).toBeNull();
    expect(crossSiteProblem(request("DELETE", { "content-type": "application/json", "sec-fetch-site": "same-origin" }), origins)).toBeNull();
    expect(crossSiteProblem(request("POST", { "content-type": "text/plain", origin: "http://localhost:3000" }), origins)).toMatch(/Content-Type/);
    expect(crossSiteProblem(request("POST", { "content-type": "application/json", origin: "http://localhost:3001" }), origins)).toMatch(/not this site/);
    expect(crossSiteProblem(request("PUT", { "content-type": "application/json", "sec-fetch-site": "cross-site" }), origins)).toMatch(/Origin header missing/);
  });

  it("returns after sign-in only to paths of this site", () => {
    expect(safeReturnPath("/catalogs/demo")).toBe("/catalogs/demo");
    for (const path of ["https://evil.example", "//evil.example", "/\\evil.example", "", null, undefined, "javascript:alert(1)"]) {
      expect(safeReturnPath(path)).toBe("/");
    }
  });
});

describe("sign-in providers from the environment", () => {
  it("offers only e-mail and password when nothing is configured", () => {
    expect(signInProvidersFromEnv({})).toEqual({});
    expect(signInButtons({})).toEqual([]);
  });

  it("configures GitHub and OpenID Connect only when complete, and never exposes a secret in the buttons", () => {
    expect(signInProvidersFromEnv({ GITHUB_CLIENT_ID: "id" })).toEqual({});
    const providers = signInProvidersFromEnv({
      GITHUB_CLIENT_ID: "gh-id",
      GITHUB_CLIENT_SECRET: "gh-secret",
      TOOLSHED_OIDC_ISSUER: "https://login.example.com/",
      TOOLSHED_OIDC_CLIENT_ID: "oidc-id",
      TOOLSHED_OIDC_CLIENT_SECRET: "oidc-secret",
      TOOLSHED_OIDC_NAME: "Example SSO",
    });
    expect(providers.github).toEqual({ clientId: "gh-id", clientSecret: "gh-secret" });
    expect(providers.oidc).toMatchObject({
      providerId: "oidc",
      discoveryUrl: "https://login.example.com/.well-known/openid-configuration",
      clientId: "oidc-id",
      scopes: ["openid", "email", "profile"],
    });
    const buttons = signInButtons(providers);
    expect(buttons).toEqual([
      { id: "github", label: "Sign in with GitHub" },
      { id: "oidc", label: "Sign in with Example SSO" },
    ]);
    expect(JSON.stringify(buttons)).not.toMatch(/secret/);
    expect(() =>
      signInProvidersFromEnv({ TOOLSHED_OIDC_DISCOVERY_URL: "not a url", TOOLSHED_OIDC_CLIENT_ID: "a", TOOLSHED_OIDC_CLIENT_SECRET: "b" }),
    ).toThrow();
  });
});
