import { describe, expect, it } from "vitest";
import { McpServerConfigSchema, type McpServerConfig } from "@/lib/sources/mcp/config";
import { HIDDEN_SECRET, joinMcpSecrets, mcpSecretValues, redactMcpConfig, splitMcpSecrets } from "@/lib/sources/mcp/secrets";

const stdio: McpServerConfig = {
  name: "s",
  transport: "stdio",
  command: "node",
  args: ["server.mjs", "--token", { value: "arg-secret", secret: true }, "--verbose"],
  env: { API_TOKEN: "env-secret", REGION: "eu" },
};

const http: McpServerConfig = {
  name: "h",
  transport: "http",
  url: "https://user%40corp:p%40ss@mcp.example.com/mcp?key=query-secret&flag&empty=&q=a+b",
  headers: { Authorization: "Bearer header-secret" },
};

describe("MCP configuration secrets", () => {
  it("accepts an argument as a string or as { value, secret: true } only", () => {
    expect(McpServerConfigSchema.safeParse(stdio).success).toBe(true);
    for (const arg of [{ value: "x", secret: false }, { value: "x" }, { value: 1, secret: true }]) {
      const result = McpServerConfigSchema.safeParse({ ...stdio, args: [arg] });
      expect(result.success).toBe(false);
      expect(result.error?.issues[0].message).toMatch(/An argument is a string, or \{ "value": "…", "secret": true \}/);
    }
    expect(McpServerConfigSchema.safeParse({ ...stdio, args: [{ value: "x", secret: true, extra: 1 }] }).error?.issues[0].message).toMatch(/Unrecognized key/);
  });

  it("splits a stdio config into a public config with placeholders and its secrets, and joins them back", () => {
    const { config, secrets } = splitMcpSecrets(stdio);
    expect(config).toEqual({
      name: "s",
      transport: "stdio",
      command: "node",
      args: ["server.mjs", "--token", { value: HIDDEN_SECRET, secret: true }, "--verbose"],
      env: { API_TOKEN: HIDDEN_SECRET, REGION: HIDDEN_SECRET },
    });
    expect(secrets).toEqual({ env: { API_TOKEN: "env-secret", REGION: "eu" }, args: { "2": "arg-secret" } });
    expect(joinMcpSecrets(config, secrets)).toEqual(stdio);
  });

  it("hides the URL's user, password and query values, and header values", () => {
    const { config, secrets } = splitMcpSecrets(http);
    expect(config).toEqual({
      name: "h",
      transport: "http",
      url: "https://********:********@mcp.example.com/mcp?key=********&flag&empty=&q=********",
      headers: { Authorization: HIDDEN_SECRET },
    });
    expect(secrets).toEqual({
      headers: { Authorization: "Bearer header-secret" },
      url: { username: "user%40corp", password: "p%40ss", query: ["query-secret", "a+b"] },
    });
    expect(joinMcpSecrets(config, secrets)).toEqual(http);
  });

  it("keeps a config without secrets as it is, and redacting twice changes nothing", () => {
    const plain: McpServerConfig = { name: "p", transport: "http", url: "https://mcp.example.com/mcp" };
    expect(splitMcpSecrets(plain)).toEqual({ config: plain, secrets: {} });
    expect(redactMcpConfig(redactMcpConfig(stdio))).toEqual(redactMcpConfig(stdio));
    expect(redactMcpConfig(redactMcpConfig(http))).toEqual(redactMcpConfig(http));
  });

  it("lists every secret value, decoded forms and the credential of a header included", () => {
    expect(mcpSecretValues(stdio).sort()).toEqual(["arg-secret", "env-secret", "eu"]);
    expect(mcpSecretValues(http).sort()).toEqual(
      ["Bearer header-secret", "a b", "a+b", "header-secret", "p%40ss", "p@ss", "query-secret", "user%40corp", "user@corp"].sort(),
    );
    const basic = mcpSecretValues({ name: "b", transport: "http", url: "https://x.example/", headers: { Authorization: `Basic ${btoa("me:pw-secret")}` } });
    expect(basic).toContain("me:pw-secret");
    expect(basic).toContain("pw-secret");
  });
});
