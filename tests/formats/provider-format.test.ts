import { describe, expect, it } from "vitest";
import { toProviderFormat } from "../../lib/formats/provider-format";
import type { ToolDefinition } from "../../lib/tools/types";

const read: ToolDefinition = {
  name: "read",
  summary: "Read a file.",
  description: "Reads a file from the local filesystem.",
  inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
};

describe("toProviderFormat", () => {
  it("shapes OpenAI Chat Completions function tools and nothing more", () => {
    expect(toProviderFormat([read], "openai")).toEqual([
      { type: "function", function: { name: "read", description: read.description, parameters: read.inputSchema } },
    ]);
    const [tool] = toProviderFormat([read], "openai");
    expect(Object.keys(tool)).toEqual(["type", "function"]);
    expect(Object.keys(tool.function)).toEqual(["name", "description", "parameters"]);
  });

  it("shapes Anthropic tools with input_schema", () => {
    const [tool] = toProviderFormat([read], "anthropic");
    expect(tool).toEqual({ name: "read", description: read.description, input_schema: read.inputSchema });
    expect(Object.keys(tool)).toEqual(["name", "description", "input_schema"]);
  });

  it("shapes AI SDK tools with inputSchema", () => {
    const [tool] = toProviderFormat([read], "ai-sdk");
    expect(tool).toEqual({ name: "read", description: read.description, inputSchema: read.inputSchema });
    expect(Object.keys(tool)).toEqual(["name", "description", "inputSchema"]);
  });

  it("keeps the order and drops the summary and other registry fields", () => {
    const grep = { ...read, name: "grep", source: "builtin", tags: ["search"] } as ToolDefinition;
    const tools = toProviderFormat([grep, read], "anthropic");
    expect(tools.map((tool) => tool.name)).toEqual(["grep", "read"]);
    expect(JSON.stringify(tools)).not.toContain("summary");
    expect(JSON.stringify(tools)).not.toContain("builtin");
  });
});
