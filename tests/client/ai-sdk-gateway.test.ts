import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { generateText, stepCountIs } from "ai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { closeGatewaySessions } from "@/app/_services/mcp-gateway";
import type { Db } from "@/db/client";
import { createToolshed, TOOL_SEARCH_NAME } from "../../packages/client/src/index";
import { apiRequest, asInstanceAdmin, createTestToken, useFreshDatabase } from "../api/helpers";
import { useEnv } from "../sources/helpers";
import { routeApiRequest } from "../support/api-routes";
import { listDecisions } from "../support/decisions";
import { SCRIPTED_MODEL_ID, type ScriptedReply } from "../support/scripted-openai-server";
import { useScriptedServer } from "../support/scripted-server-lifecycle";
import { startToolshedHttpServer, type ToolshedHttpServer } from "../support/toolshed-http-server";

// The demo MCP server, a real stdio upstream, as the catalog's "notes" server.
useEnv({ TOOLSHED_MCP_STDIO_COMMANDS: `${process.execPath} mcp-servers/demo-server.mjs` });

const send = (method: string, url: string, body?: unknown, headers: Record<string, string> = {}) =>
  routeApiRequest(
    apiRequest(url, { method, headers: { "content-type": "application/json", ...headers }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }),
  );

describe("@toolshed/client's MCP tools in an AI SDK loop: run through the catalog's MCP gateway", () => {
  const startScripted = useScriptedServer();
  let db: Db;
  let toolshed: ToolshedHttpServer;
  let token: string;

  beforeEach(async () => {
    db = await useFreshDatabase();
    token = await createTestToken(db, "read", "agent");
    expect((await send("POST", "/api/catalogs", { name: "Team" })).status).toBe(201);
    const server = { name: "notes", transport: "stdio", command: process.execPath, args: ["mcp-servers/demo-server.mjs"] };
    expect((await send("POST", "/api/catalogs/team/mcp-servers", server, await asInstanceAdmin())).status).toBe(201);
    const careful = {
      name: "careful",
      mode: "primary",
      description: "Asks before reading a note.",
      permissions: [
        { pattern: "*", action: "allow" },
        { pattern: "notes__notes_get", action: "ask" },
      ],
      baseTools: ["read"],
    };
    expect((await send("POST", "/api/catalogs/team/agents", careful)).status).toBe(201);
    toolshed = await startToolshedHttpServer();
  });

  afterEach(async () => {
    closeGatewaySessions();
    await toolshed.close();
    await send("DELETE", "/api/catalogs/team/mcp-servers/notes");
  });

  async function runTurn(agent: string, replies: ScriptedReply[], approve?: (question: string) => boolean, flags?: string[]) {
    const scripted = await startScripted(replies);
    const client = createToolshed({ baseUrl: toolshed.url, token, catalog: "team" });
    const turn = await client.aiSdkTools({ model: "gpt-5", agent, approve, flags });
    const model = createOpenAICompatible({ name: "scripted", baseURL: scripted.url }).chatModel(SCRIPTED_MODEL_ID);
    try {
      const result = await generateText({
        model,
        tools: turn.tools,
        prepareStep: turn.prepareStep,
        repairToolCall: turn.repairToolCall,
        stopWhen: stepCountIs(5),
        prompt: "Find my release notes.",
      });
      return { result, turn };
    } finally {
      await turn.close();
    }
  }

  it("calls an MCP tool the model found with ToolSearch through the gateway, which records the call; no implementation is wired", async () => {
    const { result } = await runTurn(
      "build",
      [
        { toolCalls: [{ name: TOOL_SEARCH_NAME, arguments: { query: "select:notes__notes_search" } }] },
        { toolCalls: [{ name: "notes__notes_search", arguments: { query: "release" } }] },
        { text: "Found the release checklist." },
      ],
      undefined,
      ["beta", "canary"],
    );
    const output = result.steps[1].toolResults[0]?.output as { content: { type: string; text: string }[]; isError?: boolean };
    expect(output.isError).toBeFalsy();
    expect(output.content.map((block) => block.text).join("\n")).toContain("Release checklist");
    expect(result.text).toBe("Found the release checklist.");
    expect(toolshed.requests.filter((request) => request.endsWith("/mcp")).length).toBeGreaterThan(0);
    const [call] = await listDecisions(db, "team", { kind: "call" });
    // The gateway session is the loop's model, agent and flags.
    expect(call).toMatchObject({ kind: "call", agent: "build", flags: ["beta", "canary"], result: { outcome: "ok" } });
  });

  it("asks `approve` before a call the agent must ask about, and reports a declined call to the model", async () => {
    const questions: string[] = [];
    const script: ScriptedReply[] = [
      { toolCalls: [{ name: TOOL_SEARCH_NAME, arguments: { query: "select:notes__notes_get" } }] },
      { toolCalls: [{ name: "notes__notes_get", arguments: { id: "note-1" } }] },
      { text: "Done." },
    ];
    const declined = await runTurn("careful", script, (question) => {
      questions.push(question);
      return false;
    });
    const refusal = declined.result.steps[1].toolResults[0]?.output as { content: { text: string }[]; isError?: boolean };
    expect(refusal.isError).toBe(true);
    expect(refusal.content[0].text).toContain("declined");
    expect(questions[0]).toContain("notes__notes_get");

    const accepted = await runTurn("careful", script, () => true);
    const answer = accepted.result.steps[1].toolResults[0]?.output as { content: { text: string }[]; isError?: boolean };
    expect(answer.isError).toBeFalsy();
    expect(answer.content[0].text).toContain("Q3 planning");
  });
});
