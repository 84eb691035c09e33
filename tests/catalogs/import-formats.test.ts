import { describe, expect, it } from "vitest";
import { EXPORT_FORMAT, parseImport } from "@/lib/catalogs/exchange";
import { acceptedFormatsText, type DetectedTools, detectImport } from "@/lib/catalogs/import-formats";

const SCHEMA = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };
const WEATHER = { name: "get_weather", description: "Get the weather in a city.", parameters: SCHEMA };

function tools(document: unknown): DetectedTools {
  const detected = detectImport(document);
  if (detected.kind !== "tools") throw new Error(`detected ${detected.kind}`);
  return detected;
}

function refusal(document: unknown): { code: string; message: string } {
  try {
    detectImport(document);
  } catch (error) {
    return error as { code: string; message: string };
  }
  throw new Error("detectImport accepted the document");
}

/** What parseImport makes of the detected document: the tools an import would write. */
const imported = (document: unknown) => parseImport(tools(document).document);

describe("detecting an import's format", () => {
  it("reads OpenAI Chat Completions function tools as a plain list and wrapped in {tools}", () => {
    const chat = [{ type: "function", function: { ...WEATHER, strict: true } }];
    for (const document of [chat, { tools: chat }]) {
      const detected = tools(document);
      expect(detected.format).toEqual({ id: "openai-chat", label: "OpenAI Chat Completions function tools" });
      expect(detected.problems).toEqual([]);
      expect(detected.notes).toEqual(['"strict" (on 1 tool) is not kept: an imported tool is its name, description and input schema.']);
      expect(imported(document)).toEqual([
        {
          name: "get_weather",
          source: "custom",
          summary: "Get the weather in a city.",
          description: "Get the weather in a city.",
          inputSchema: SCHEMA,
          tags: [],
        },
      ]);
    }
  });

  it("reads OpenAI Responses, Anthropic and MCP tools/list (also as a JSON-RPC answer), each by its own schema field", () => {
    const cases: [unknown, string][] = [
      [[{ type: "function", ...WEATHER }], "openai-responses"],
      [[{ name: WEATHER.name, description: WEATHER.description, input_schema: SCHEMA, cache_control: { type: "ephemeral" } }], "anthropic"],
      [{ tools: [{ name: WEATHER.name, description: WEATHER.description, inputSchema: SCHEMA, annotations: { readOnlyHint: true } }] }, "mcp-tools"],
      [{ jsonrpc: "2.0", id: 1, result: { tools: [{ name: WEATHER.name, description: WEATHER.description, inputSchema: SCHEMA }] } }, "mcp-tools"],
    ];
    for (const [document, id] of cases) {
      expect(tools(document).format.id).toBe(id);
      expect(tools(document).problems).toEqual([]);
      expect(imported(document)[0]).toMatchObject({ name: "get_weather", inputSchema: SCHEMA });
    }
    expect(tools(cases[2][0]).notes).toEqual(['"annotations" (on 1 tool) is not kept: an imported tool is its name, description and input schema.']);
  });

  it("passes Toolshed's own export and labelled set to parseImport as they are", () => {
    const exported = { format: EXPORT_FORMAT, version: 1, tools: [] };
    expect(tools(exported)).toMatchObject({ format: { id: "toolshed" }, document: exported });
    expect(tools({ tools: [WEATHER] })).toMatchObject({ format: { id: "labelled-set", label: "labelled set" }, document: { tools: [WEATHER] } });
    // A plain list of labelled-set tools too.
    expect(imported([WEATHER])[0]).toMatchObject({ name: "get_weather", inputSchema: SCHEMA });
  });

  it("detects MCP client configurations of Claude Desktop / Cursor and VS Code", () => {
    const server = { command: "npx", args: ["-y", "weather-mcp"] };
    expect(detectImport({ mcpServers: { weather: server } })).toMatchObject({ kind: "servers", at: "mcpServers", format: { id: "mcp-client-config" } });
    expect(detectImport({ servers: { weather: server }, inputs: [] })).toMatchObject({ kind: "servers", at: "servers" });
    expect(detectImport({ mcp: { servers: { weather: server } } })).toMatchObject({ kind: "servers", at: "mcp.servers" });
  });

  it("names the file's own fields in problems, and gives one problem to an entry of another shape", () => {
    const detected = tools([
      { type: "function", function: WEATHER },
      { name: "anthropic_one", input_schema: SCHEMA },
      { type: "function", function: { ...WEATHER, name: "third", extra: 1 }, cache: true },
    ]);
    expect(detected.problems).toEqual([
      {
        field: "tools.1",
        message: expect.stringContaining('not one of the file\'s OpenAI Chat Completions function tools: each looks like {"type": "function", "function"'),
      },
      { field: "tools.2.cache", message: '"cache" is not part of a tool here and would be lost: remove it to import the file.' },
      { field: "tools.2.function.extra", message: '"extra" is not part of a tool here and would be lost: remove it to import the file.' },
    ]);
    expect(detected.fieldInFile("tools.4.inputSchema.properties.city")).toBe("tools.4.function.parameters.properties.city");
    expect(detected.fieldInFile("tools.4.summary")).toBe("tools.4.function.description");
    expect(detected.fieldInFile("tools.4.name")).toBe("tools.4.function.name");
  });

  it("answers an unknown shape with one message naming every accepted format with an example", () => {
    for (const document of [null, 42, "tools", { name: "x" }, [{ foo: 1 }], { tools: "x" }, [1, 2]]) {
      const { code, message } = refusal(document);
      expect(code).toBe("bad_request");
      expect(message).toContain(acceptedFormatsText());
      expect(message.split("\n")).toHaveLength(9);
    }
    for (const name of [
      "OpenAI Chat Completions",
      "OpenAI Responses",
      "Anthropic",
      "MCP tools/list",
      "labelled set",
      "Toolshed export",
      "Claude Desktop",
      "VS Code",
    ])
      expect(acceptedFormatsText()).toContain(name);
  });

  it("survives hostile input: prototype keys, huge lists, non-object entries", () => {
    const hostile = JSON.parse('[{"type": "function", "function": {"name": "x", "description": "d", "__proto__": {"polluted": true}}}, null, 7]');
    const detected = tools(hostile);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
    expect(detected.problems.map((problem) => problem.field)).toEqual(["tools.0.function.__proto__", "tools.1", "tools.2"]);
    expect(() => detectImport(Array(50_001).fill({ type: "function", function: WEATHER }))).toThrow(/at most 50000 tools/);
  });
});
