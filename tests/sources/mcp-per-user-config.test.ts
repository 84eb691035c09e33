import { describe, expect, it } from "vitest";
import { parseCatalogCode } from "@/lib/catalogs/catalog-code";
import { isPerUser, type McpServerConfig, McpServerConfigSchema } from "@/lib/sources/mcp/config";
import { mcpPolicyProblem } from "@/lib/sources/mcp/policy";
import { mcpSecretValues } from "@/lib/sources/mcp/secrets";
import { isAnswerFromIssuer, isPendingSignIn, PersonalSecretSchema, withPersonalSecret } from "@/lib/sources/mcp/user-credentials";

const http = { name: "gh", transport: "http", url: "https://mcp.example.com/mcp" } as const;
const problemsOf = (value: unknown) => McpServerConfigSchema.safeParse(value).error?.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`) ?? [];

describe("an MCP server's credential mode", () => {
  it("is shared unless said otherwise, and each per-person mode is read as written", () => {
    expect(isPerUser(McpServerConfigSchema.parse(http))).toBe(false);
    expect(isPerUser(McpServerConfigSchema.parse({ ...http, credentials: { mode: "shared" } }))).toBe(false);
    const secret = { ...http, credentials: { mode: "per-user-secret", header: "Authorization", prefix: "Bearer " } };
    expect(McpServerConfigSchema.parse(secret)).toEqual(secret);
    const oauth = { ...http, credentials: { mode: "per-user-oauth", scope: "repo" } };
    expect(isPerUser(McpServerConfigSchema.parse(oauth))).toBe(true);
    const stdio = { name: "local", transport: "stdio", command: "node", credentials: { mode: "per-user-secret", env: "API_TOKEN" } };
    expect(McpServerConfigSchema.parse(stdio)).toEqual(stdio);
  });

  it("refuses what it cannot serve, saying which field", () => {
    expect(problemsOf({ ...http, credentials: { mode: "per-user-secret" } })).toEqual([expect.stringMatching(/^credentials\.header: /)]);
    expect(problemsOf({ ...http, credentials: { mode: "per-user-secret", header: "bad header" } })).toEqual([expect.stringMatching(/^credentials\.header: /)]);
    expect(problemsOf({ name: "local", transport: "stdio", command: "node", credentials: { mode: "per-user-oauth" } })).toEqual([
      expect.stringMatching(/^credentials(\.mode)?: credentials\.mode is "shared" or "per-user-secret"/),
    ]);
    expect(problemsOf({ ...http, credentials: { mode: "everyone" } })).toHaveLength(1);
  });

  it("refuses a shared credential where each person's own goes: the admin's would reach the server for them", () => {
    expect(problemsOf({ ...http, headers: { authorization: "Bearer admin" }, credentials: { mode: "per-user-oauth" } })).toEqual([
      "headers.authorization: authorization carries each person's own credential: remove it from headers.",
    ]);
    expect(problemsOf({ ...http, headers: { "X-Key": "admin" }, credentials: { mode: "per-user-secret", header: "x-key" } })).toHaveLength(1);
    expect(
      problemsOf({
        name: "local",
        transport: "stdio",
        command: "node",
        env: { API_TOKEN: "admin" },
        credentials: { mode: "per-user-secret", env: "API_TOKEN" },
      }),
    ).toEqual(["env.API_TOKEN: API_TOKEN is each person's own secret: remove it from env."]);
    // Other shared headers stay: an organisation's id is no person's credential.
    expect(problemsOf({ ...http, headers: { "X-Org": "acme" }, credentials: { mode: "per-user-oauth" } })).toEqual([]);
  });

  it("goes through a catalog file as it was configured", () => {
    const server = { ...http, credentials: { mode: "per-user-oauth", scope: "repo" } };
    expect(parseCatalogCode({ format: "toolshed.catalog", version: 2, mcpServers: [server] }).mcpServers).toEqual([server]);
  });
});

describe("a per-person secret of a stdio server", () => {
  const server: McpServerConfig = {
    name: "local",
    transport: "stdio",
    command: "node",
    args: ["server.mjs"],
    credentials: { mode: "per-user-secret", env: "API_TOKEN" },
  };

  it("goes in a variable the operator allows, checked when the server is added", () => {
    const allowing = { TOOLSHED_MCP_STDIO_COMMANDS: "node server.mjs env=API_TOKEN" };
    expect(mcpPolicyProblem(server, allowing)).toBeUndefined();
    expect(mcpPolicyProblem(server, { TOOLSHED_MCP_STDIO_COMMANDS: "node server.mjs" })).toMatchObject({ field: "credentials.env" });
  });

  it("is set in that variable of the person's own process only, and masked in what the server says", () => {
    const personal = withPersonalSecret(server, "ada-secret");
    expect(personal).toMatchObject({ env: { API_TOKEN: "ada-secret" }, credentials: undefined });
    expect(McpServerConfigSchema.safeParse(personal).success).toBe(true);
    expect(mcpSecretValues(personal)).toContain("ada-secret");
    expect(server).not.toHaveProperty("env");
  });
});

describe("a per-person OAuth sign-in's state", () => {
  const pending = { pending: { state: "the-state-of-ada", expiresAt: 2_000 } };

  it("is taken only as it was given, and only in time", () => {
    expect(isPendingSignIn(pending, "the-state-of-ada", 1_000)).toBe(true);
    expect(isPendingSignIn(pending, "the-state-of-bob", 1_000)).toBe(false);
    expect(isPendingSignIn(pending, "the-state", 1_000)).toBe(false);
    expect(isPendingSignIn(pending, "the-state-of-ada", 3_000)).toBe(false);
    expect(isPendingSignIn({}, "the-state-of-ada", 1_000)).toBe(false);
  });
});

describe("an authorization answer's issuer (RFC 9207)", () => {
  const issuer = "https://auth.example.com/";
  it("must be the issuer discovery found, when the answer names one", () => {
    expect(isAnswerFromIssuer({ authorizationServer: { issuer, sendsIss: false } }, issuer)).toBe(true);
    expect(isAnswerFromIssuer({ authorizationServer: { issuer, sendsIss: false } }, "https://evil.example/")).toBe(false);
    expect(isAnswerFromIssuer({}, issuer)).toBe(false);
  });

  it("may be left out only by a server that does not say it always sends one", () => {
    expect(isAnswerFromIssuer({ authorizationServer: { issuer, sendsIss: false } }, undefined)).toBe(true);
    expect(isAnswerFromIssuer({}, undefined)).toBe(true);
    expect(isAnswerFromIssuer({ authorizationServer: { issuer, sendsIss: true } }, undefined)).toBe(false);
  });
});

describe("a secret a person enters", () => {
  it("is one line without control characters, which would reach a header or a process's environment", () => {
    const problem = (value: string) => PersonalSecretSchema.safeParse(value).error?.issues[0]?.message;
    expect(problem("ghp_abc123 with spaces")).toBeUndefined();
    expect(problem("")).toBe("Enter the secret.");
    expect(problem("one\ntwo")).toBe("A secret is one line.");
    for (const value of ["tab\there", "nul\u0000", "del\u007f", "bell\u0007"]) {
      expect(problem(value)).toBe("A secret has no control characters (such as tabs or NUL).");
    }
  });
});
