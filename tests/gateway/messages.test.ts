import { describe, expect, it } from "vitest";
import { initializeParams, onlyAnswers, scopeNeeded, toolListFingerprint } from "@/lib/gateway/messages";

const initialize = (params: unknown) => ({ jsonrpc: "2.0", id: 1, method: "initialize", params });
const hello = { protocolVersion: "2025-06-18", capabilities: { elicitation: { form: {} } }, clientInfo: { name: "client", version: "1.0" } };

describe("what the gateway reads of a request body", () => {
  it("takes what the client said of itself from an initialize request, alone or in a batch", () => {
    expect(initializeParams(initialize(hello))).toEqual({ hello });
    expect(initializeParams([initialize(hello)])).toEqual({ hello });
    expect(initializeParams({ jsonrpc: "2.0", id: 2, method: "tools/list" })).toEqual({});
    expect(initializeParams(undefined)).toEqual({});
  });

  it("says what is wrong with a broken initialize request, and where", () => {
    expect(initializeParams(initialize({ capabilities: {}, clientInfo: { name: "c", version: "1" } })).problem).toMatch(
      /^Invalid initialize request: .*\(params\.protocolVersion\)$/,
    );
  });

  it("tells a body of answers only from one with requests or notifications", () => {
    expect(onlyAnswers({ jsonrpc: "2.0", id: 3, result: { action: "accept" } })).toBe(true);
    expect(
      onlyAnswers([
        { jsonrpc: "2.0", id: 3, result: {} },
        { jsonrpc: "2.0", id: 4, error: { code: -1, message: "no" } },
      ]),
    ).toBe(true);
    expect(
      onlyAnswers([
        { jsonrpc: "2.0", id: 3, result: {} },
        { jsonrpc: "2.0", method: "notifications/initialized" },
      ]),
    ).toBe(false);
    expect(onlyAnswers([])).toBe(false);
    expect(onlyAnswers(undefined)).toBe(false);
  });

  it("fingerprints a tool list by everything the client receives", () => {
    const tools = [{ name: "read", description: "Reads a file.", inputSchema: { type: "object" } }];
    expect(toolListFingerprint(tools)).toBe(toolListFingerprint(structuredClone(tools)));
    expect(toolListFingerprint(tools)).not.toBe(toolListFingerprint([{ ...tools[0], description: "Reads a file whole." }]));
  });
});

describe("the OAuth scope a request body needs", () => {
  const request = (method: string, params?: unknown) => ({ jsonrpc: "2.0", id: 1, method, params });

  it("is tools:read to open a session, list, search (ToolSearch) and answer", () => {
    expect(scopeNeeded(initialize(hello))).toBe("tools:read");
    expect(scopeNeeded(request("tools/list"))).toBe("tools:read");
    expect(scopeNeeded(request("tools/call", { name: "ToolSearch", arguments: { query: "x" } }))).toBe("tools:read");
    expect(scopeNeeded({ jsonrpc: "2.0", id: 1, result: {} })).toBe("tools:read");
    expect(scopeNeeded(undefined)).toBe("tools:read");
  });

  it("is tools:call for any other tool call (ToolCall included) and for what reaches the catalog's servers, alone or in a batch", () => {
    expect(scopeNeeded(request("tools/call", { name: "ToolCall", arguments: {} }))).toBe("tools:call");
    expect(scopeNeeded(request("tools/call", { name: "github_create_issue" }))).toBe("tools:call");
    expect(scopeNeeded([request("tools/list"), request("resources/read", { uri: "x" })])).toBe("tools:call");
    expect(scopeNeeded(request("prompts/get", { name: "p" }))).toBe("tools:call");
  });
});
