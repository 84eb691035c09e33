import { describe, expect, it } from "vitest";
import { adaptMcpTools } from "../../lib/sources/mcp/adapt";
import { McpServerConfigSchema } from "../../lib/sources/mcp/config";
import { HIDDEN_SECRET, redactMcpConfig } from "../../lib/sources/mcp/secrets";
import { registryNamesForServer } from "../../lib/sources/mcp/names";
import { TOOL_NAME_PATTERN } from "../../lib/tools/types";

const objectSchema = { type: "object", properties: { q: { type: "string" } } };

describe("registryNamesForServer", () => {
  it("prefixes the server and keeps valid names readable", () => {
    expect(registryNamesForServer("github", ["search_issues", "create-pr"])).toEqual(["github__search_issues", "github__create-pr"]);
  });

  it("replaces characters providers reject", () => {
    expect(registryNamesForServer("fs", ["files.read", "ünïcode tool", "a/b:c"])).toEqual(["fs__files_read", "fs___n_code_tool", "fs__a_b_c"]);
  });

  it("cuts long names to 64 characters with a stable hash of the original name", () => {
    const long = `summarize_${"very_".repeat(20)}long_tool`;
    const [name] = registryNamesForServer("docs", [long]);
    expect(name).toHaveLength(64);
    expect(name).toMatch(/^docs__summarize_very_very_.*_[0-9a-f]{8}$/);
    expect(registryNamesForServer("docs", ["other", long])[1]).toBe(name);
    // Two long names with the same first 64 characters still differ.
    const [first, second] = registryNamesForServer("docs", [`${long}_a`, `${long}_b`]);
    expect(first).not.toBe(second);
    expect([first, second].every((candidate) => candidate.length === 64 && TOOL_NAME_PATTERN.test(candidate))).toBe(true);
  });

  it("resolves collisions after replacement the same way whatever the listing order", () => {
    const tools = ["a.b", "a b", "a_b"];
    const names = registryNamesForServer("srv", tools);
    // The name that needed no change keeps it; the others get distinct hashed names.
    expect(names[2]).toBe("srv__a_b");
    expect(names[0]).toMatch(/^srv__a_b_[0-9a-f]{8}$/);
    expect(names[1]).toMatch(/^srv__a_b_[0-9a-f]{8}$/);
    expect(new Set(names).size).toBe(3);
    const reversed = registryNamesForServer("srv", [...tools].reverse());
    expect(reversed).toEqual([...names].reverse());
  });

  it("gives every name the provider pattern", () => {
    const names = registryNamesForServer("x", ["", "...", "日本語", "a".repeat(300)]);
    for (const name of names) expect(name).toMatch(TOOL_NAME_PATTERN);
    expect(new Set(names).size).toBe(4);
  });
});

describe("adaptMcpTools", () => {
  it("adapts a tool to the unified format, keeping the MCP name and server, and its input schema's dialect beside it", () => {
    const long = `${"Finds issues by text. ".repeat(15)}Returns at most 50.`;
    const { tools, problems } = adaptMcpTools("github", [
      {
        name: "search.issues",
        title: "Search issues",
        description: long,
        inputSchema: { $schema: "http://json-schema.org/draft-07/schema#", ...objectSchema },
        annotations: { readOnlyHint: true },
      },
    ]);
    expect(problems).toEqual([]);
    expect(tools).toEqual([
      {
        name: "github__search_issues",
        source: "mcp",
        summary: expect.stringMatching(/^Finds issues by text\./),
        description: long.trim(),
        inputSchema: objectSchema,
        tags: ["github"],
        server: "github",
        mcpName: "search.issues",
        title: "Search issues",
        annotations: { readOnlyHint: true },
        inputSchemaDialect: "http://json-schema.org/draft-07/schema#",
      },
    ]);
    expect(tools[0].summary.length).toBeLessThanOrEqual(200);
  });

  it("keeps a tool's output schema (its dialect too: results are checked in it) and its _meta", () => {
    const outputSchema = { $schema: "http://json-schema.org/draft-07/schema#", type: "object", properties: { n: { type: "number" } } };
    const _meta = { "example.com/ui": { widget: "table" } };
    const [tool] = adaptMcpTools("srv", [{ name: "count", description: "Counts.", inputSchema: objectSchema, outputSchema, _meta }]).tools;
    expect(tool).toMatchObject({ outputSchema, _meta });
  });

  it("reports a tool whose output schema is unusable, in the output schema's words", () => {
    const { tools, problems } = adaptMcpTools("srv", [
      { name: "scalar_output", description: "x", inputSchema: objectSchema, outputSchema: { type: "string" } },
      { name: "bad_output", description: "x", inputSchema: objectSchema, outputSchema: { type: "object", properties: { a: { type: "strin" } } } },
      { name: "text_output", description: "x", inputSchema: objectSchema, outputSchema: "an object" },
      { name: "null_output", description: "x", inputSchema: objectSchema, outputSchema: null },
    ]);
    expect(tools.map((tool) => tool.mcpName)).toEqual(["null_output"]);
    expect(problems.map((problem) => [problem.mcpName, problem.message])).toEqual([
      ["scalar_output", 'The root of an output schema must have type "object". (outputSchema.type)'],
      ["bad_output", expect.stringMatching(/^Not a valid JSON Schema.*\(outputSchema\.properties\.a\.type\)$/)],
      ["text_output", "Output schema must be a JSON object. (outputSchema)"],
    ]);
  });

  it("falls back to the title, then to a generated summary, when there is no description", () => {
    const { tools } = adaptMcpTools("srv", [
      { name: "titled", title: "Titled tool", inputSchema: objectSchema },
      { name: "bare", inputSchema: objectSchema },
    ]);
    expect(tools.map((tool) => [tool.summary, tool.description])).toEqual([
      ["Titled tool", ""],
      ["bare (a tool of the MCP server srv)", ""],
    ]);
  });

  it("reports broken tools one by one and keeps the others", () => {
    const { tools, problems } = adaptMcpTools("srv", [
      { name: "good", description: "Works.", inputSchema: objectSchema },
      { name: "scalar_root", description: "x", inputSchema: { type: "string" } },
      { name: "no_schema", description: "x" },
      { name: "bad_keyword", description: "x", inputSchema: { type: "object", properties: { a: { type: "strin" } } } },
      { name: "huge", description: "x", inputSchema: { type: "object", properties: { blob: { description: "y".repeat(70_000) } } } },
      { name: "good", description: "Listed twice.", inputSchema: objectSchema },
      { description: "nameless", inputSchema: objectSchema },
      "not even an object",
    ]);
    expect(tools.map((tool) => tool.mcpName)).toEqual(["good"]);
    expect(problems.map((problem) => [problem.mcpName, problem.message])).toEqual([
      ["good", "The server lists this tool name more than once; only the first is used."],
      ["#7", "The server listed a tool without a name."],
      ["#8", "The server listed a tool without a name."],
      ["scalar_root", 'The root of an input schema must have type "object". (inputSchema.type)'],
      ["no_schema", "Input schema must be a JSON object. (inputSchema)"],
      ["bad_keyword", expect.stringMatching(/^Not a valid JSON Schema/)],
      ["huge", expect.stringMatching(/^Input schema is too large/)],
    ]);
  });
});

describe("McpServerConfigSchema", () => {
  it("accepts the two transports", () => {
    expect(McpServerConfigSchema.parse({ name: "notes", transport: "stdio", command: "node", args: ["server.mjs"], env: { TOKEN: "x" } })).toBeTruthy();
    expect(
      McpServerConfigSchema.parse({ name: "remote-1", transport: "http", url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer x" } }),
    ).toBeTruthy();
  });

  it.each([
    [{ name: "Notes", transport: "stdio", command: "node" }, /lowercase/],
    [{ name: "a__b", transport: "stdio", command: "node" }, /cannot contain '__'/],
    [{ name: "notes_", transport: "stdio", command: "node" }, /end with '_'/],
    [{ name: "notes", transport: "stdio", command: " " }, /command is required/],
    [{ name: "notes", transport: "stdio", command: "node", env: { "BAD NAME": "x" } }, /environment variable/],
    [{ name: "notes", transport: "http", url: "ftp://example.com" }, /http:\/\/ or https:\/\//],
    [{ name: "notes", transport: "http", url: "https://example.com", command: "node" }, /Unrecognized key/],
    [{ name: "notes", transport: "websocket", url: "wss://example.com" }, /transport|discriminator|Invalid input/],
  ])("rejects %j", (config, message) => {
    const result = McpServerConfigSchema.safeParse(config);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message).join("; ")).toMatch(message);
  });

  it("redacts env values and header values, keeping their names", () => {
    expect(redactMcpConfig({ name: "a", transport: "stdio", command: "node", env: { TOKEN: "secret" } })).toEqual({
      name: "a",
      transport: "stdio",
      command: "node",
      env: { TOKEN: HIDDEN_SECRET },
    });
    expect(redactMcpConfig({ name: "b", transport: "http", url: "https://x.test/mcp", headers: { Authorization: "Bearer s" } }).headers).toEqual({
      Authorization: HIDDEN_SECRET,
    });
  });
});
