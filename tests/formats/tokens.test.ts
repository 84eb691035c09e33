import { countTokens as countO200k } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { countTokens } from "../../lib/formats/tokens";
import { toProviderFormat } from "../../lib/formats/provider-format";
import type { ToolDefinition } from "../../lib/tools/types";

const tool = (name: string, description: string): ToolDefinition => ({
  name,
  summary: "",
  description,
  inputSchema: { type: "object", properties: { path: { type: "string", description: "Absolute path" } }, required: ["path"] },
});

const tools = [tool("read", "Reads a file."), tool("grep", "Searches file contents with a regular expression. ".repeat(20))];

describe("countTokens", () => {
  it.each(["openai", "anthropic", "ai-sdk"] as const)("counts each %s definition as sent, total being the sum", (format) => {
    const { total, perTool } = countTokens(tools, format);
    expect(perTool.read).toBeGreaterThan(0);
    expect(perTool.grep).toBeGreaterThan(perTool.read);
    expect(total).toBe(perTool.read + perTool.grep);
    const sent = toProviderFormat(tools, format);
    expect(perTool.read).toBe(countO200k(JSON.stringify(sent[0])));
  });

  it("charges OpenAI's wrapper a few tokens more than Anthropic's shape", () => {
    expect(countTokens(tools, "openai").total).toBeGreaterThan(countTokens(tools, "anthropic").total);
  });

  it("is zero for no tools and survives awkward names", () => {
    expect(countTokens([], "openai")).toEqual({ total: 0, perTool: {} });
    const { perTool, total } = countTokens([tool("__proto__", "x")], "openai");
    expect(Object.keys(perTool)).toEqual(["__proto__"]);
    expect(perTool["__proto__"]).toBe(total);
  });
});
