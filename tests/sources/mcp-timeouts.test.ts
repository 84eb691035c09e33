import { describe, expect, it } from "vitest";
import { MCP_CONNECT_TIMEOUT_ENV, mcpCallTimeoutMs, mcpConnectTimeoutMs } from "@/lib/sources/mcp";

describe("MCP timeouts from the environment", () => {
  it("give a server a minute to start by default, enough for a cold `npx -y`", () => {
    expect(mcpConnectTimeoutMs({})).toBe(60_000);
    expect(mcpConnectTimeoutMs({ [MCP_CONNECT_TIMEOUT_ENV]: " 90000 " })).toBe(90_000);
    expect(mcpCallTimeoutMs({})).toBe(60_000);
  });

  it.each(["0", "-5", "1.5", "soon"])("refuse %s, naming the variable", (value) => {
    expect(() => mcpConnectTimeoutMs({ [MCP_CONNECT_TIMEOUT_ENV]: value })).toThrow(
      `TOOLSHED_MCP_CONNECT_TIMEOUT_MS="${value}" must be a positive whole number of milliseconds.`,
    );
    expect(() => mcpCallTimeoutMs({ TOOLSHED_MCP_CALL_TIMEOUT_MS: value })).toThrow("TOOLSHED_MCP_CALL_TIMEOUT_MS");
  });
});
