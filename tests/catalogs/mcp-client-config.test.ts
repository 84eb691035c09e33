import { describe, expect, it } from "vitest";
import { serverNameOf, serversOfClientConfig } from "@/lib/catalogs/mcp-client-config";

// biome-ignore lint/suspicious/noTemplateCurlyInString: VS Code's input variable, as its mcp.json holds it.
const INPUT_VARIABLE = "${input:token}";

describe("an MCP client configuration's servers", () => {
  it("turns Claude Desktop / Cursor entries into stdio and HTTP servers, checked as POST …/mcp-servers checks them", () => {
    const servers = serversOfClientConfig(
      {
        weather: { command: "npx", args: ["-y", "weather-mcp"], env: { WEATHER_KEY: "k-123" } },
        Remote_Docs: { url: "https://docs.example.com/mcp", headers: { Authorization: "Bearer t" }, disabled: false },
      },
      "mcpServers",
    );
    expect(servers).toEqual([
      {
        key: "weather",
        name: "weather",
        problems: [],
        notes: [],
        config: { name: "weather", transport: "stdio", command: "npx", args: ["-y", "weather-mcp"], env: { WEATHER_KEY: "k-123" } },
      },
      {
        key: "Remote_Docs",
        name: "remote_docs",
        problems: [],
        notes: [`Named "remote_docs" here: a server name is lowercase letters, digits, '_' and '-'.`, 'Not kept: "disabled" (Toolshed has no such setting).'],
        config: { name: "remote_docs", transport: "http", url: "https://docs.example.com/mcp", headers: { Authorization: "Bearer t" } },
      },
    ]);
  });

  it("reads VS Code's typed entries, and refuses SSE, unknown types, client variables and bad fields by the file's field", () => {
    const servers = serversOfClientConfig(
      {
        github: { type: "http", url: "https://api.githubcopilot.com/mcp/" },
        old: { type: "sse", url: "https://example.com/sse" },
        odd: { type: "websocket", url: "wss://example.com" },
        keyed: { type: "stdio", command: "npx", env: { TOKEN: INPUT_VARIABLE } },
        broken: { command: "", args: "not a list" },
        notObject: 3,
      },
      "servers",
    );
    expect(servers[0].config).toEqual({ name: "github", transport: "http", url: "https://api.githubcopilot.com/mcp/" });
    expect(servers[1].problems).toEqual([{ field: "servers.old.type", message: expect.stringContaining("SSE transport is not supported") }]);
    expect(servers[2].problems[0].message).toContain('its type "websocket" is not stdio or http');
    expect(servers[3].problems).toEqual([
      { field: "servers.keyed.env.TOKEN", message: expect.stringContaining(`${INPUT_VARIABLE} is filled in by the MCP client`) },
    ]);
    expect(servers[4].problems.map((problem) => problem.field)).toEqual(["servers.broken.command", "servers.broken.args"]);
    expect(servers[5].problems[0].field).toBe("servers.notObject");
    for (const server of servers.slice(1)) expect(server.config).toBeUndefined();
  });

  it("names servers as the catalog may, and refuses two keys that would share a name", () => {
    expect(serverNameOf("My Server!")).toBe("my-server-");
    expect(serverNameOf("__x__y_")).toBe("x_y");
    expect(serverNameOf("!!!")).toBe("server");
    expect(serverNameOf("a".repeat(40))).toHaveLength(32);
    const [, second] = serversOfClientConfig({ Docs: { url: "https://a.example.com" }, docs: { url: "https://b.example.com" } }, "mcpServers");
    expect(second.problems).toEqual([{ field: "mcpServers.docs", message: '"docs" and "Docs" would both be named "docs" here: rename one.' }]);
    expect(second.config).toBeUndefined();
  });

  it("refuses more than 100 servers at once", () => {
    const many = Object.fromEntries(Array.from({ length: 101 }, (_, index) => [`s${index}`, { url: "https://example.com" }]));
    expect(serversOfClientConfig(many, "mcpServers")).toEqual([
      { key: "mcpServers", name: "", problems: [{ field: "mcpServers", message: "An import adds at most 100 servers; this file has 101." }], notes: [] },
    ]);
  });
});
