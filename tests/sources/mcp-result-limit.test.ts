import { describe, expect, it } from "vitest";
import { DEFAULT_MCP_RESULT_MAX_CHARS, limitMcpResult, mcpResultMaxChars, mcpResultSize, type McpToolResult } from "@/lib/sources/mcp";

describe("limitMcpResult", () => {
  it("returns a result within the limit as it is", () => {
    const result: McpToolResult = { content: [{ type: "text", text: "hello" }], isError: false, structuredContent: { a: 1 } };
    expect(limitMcpResult(result, 100)).toBe(result);
    expect(mcpResultSize(result)).toBe(5 + JSON.stringify({ a: 1 }).length);
  });

  it("keeps the blocks that fit, cuts the text that does not, leaves out the rest and says so", () => {
    const result: McpToolResult = {
      content: [
        { type: "text", text: "a".repeat(30) },
        { type: "resource", resource: { uri: "file:///log", text: "b".repeat(50) } },
        { type: "text", text: "c".repeat(40) },
      ],
      isError: true,
    };
    expect(limitMcpResult(result, 60)).toEqual({
      content: [
        { type: "text", text: "a".repeat(30) },
        { type: "resource", resource: { uri: "file:///log", text: "b".repeat(30) } },
        { type: "text", text: "… [truncated: 120 characters, limit 60]" },
      ],
      isError: true,
    });
  });

  it("leaves out binary data that does not fit rather than cutting it, and structured content too", () => {
    const result: McpToolResult = {
      content: [
        { type: "text", text: "summary" },
        { type: "image", data: "A".repeat(1_000), mimeType: "image/png" },
        { type: "resource_link", uri: "file:///big.png", name: "big.png" },
      ],
      isError: false,
      structuredContent: { rows: [1, 2, 3] },
    };
    const limited = limitMcpResult(result, 100);
    expect(limited.content).toEqual([
      { type: "text", text: "summary" },
      { type: "resource_link", uri: "file:///big.png", name: "big.png" },
      { type: "text", text: `… [truncated: ${(1_007 + JSON.stringify({ rows: [1, 2, 3] }).length).toLocaleString("en-US")} characters, limit 100]` },
    ]);
    expect(limited).not.toHaveProperty("structuredContent");
  });

  it("never splits a surrogate pair", () => {
    const limited = limitMcpResult({ content: [{ type: "text", text: "ab😀cd" }], isError: false }, 3);
    expect(limited.content[0]).toEqual({ type: "text", text: "ab" });
  });
});

describe("mcpResultMaxChars", () => {
  it("defaults to 100,000 and reads TOOLSHED_MCP_RESULT_MAX_CHARS", () => {
    expect(mcpResultMaxChars({})).toBe(DEFAULT_MCP_RESULT_MAX_CHARS);
    expect(DEFAULT_MCP_RESULT_MAX_CHARS).toBe(100_000);
    expect(mcpResultMaxChars({ TOOLSHED_MCP_RESULT_MAX_CHARS: " " })).toBe(100_000);
    expect(mcpResultMaxChars({ TOOLSHED_MCP_RESULT_MAX_CHARS: "2500" })).toBe(2_500);
  });

  it.each(["0", "-5", "1.5", "lots"])("refuses %s, naming the variable", (value) => {
    expect(() => mcpResultMaxChars({ TOOLSHED_MCP_RESULT_MAX_CHARS: value })).toThrow(
      expect.objectContaining({ status: 400, message: `TOOLSHED_MCP_RESULT_MAX_CHARS="${value}" must be a positive whole number of characters.` }),
    );
  });
});
