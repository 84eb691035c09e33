import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { generateText, stepCountIs } from "ai";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { seed } from "@/db/seed";
import { createToolshed, TOOL_SEARCH_NAME, type ToolImplementation, ToolshedApiError } from "../../packages/client/src/index";
import { createTestToken, useFreshDatabase } from "../api/helpers";
import { SCRIPTED_MODEL_ID, type ScriptedReply } from "../support/scripted-openai-server";
import { useScriptedServer } from "../support/scripted-server-lifecycle";
import { startToolshedHttpServer, type ToolshedHttpServer } from "../support/toolshed-http-server";

const ISSUE = { owner: "acme", repo: "web-app", title: "Release notes for v2 are missing" };

/** The names of the tools the model was offered in one chat completion request. */
const offered = (request: { tools?: { function: { name: string } }[] }) => (request.tools ?? []).map((entry) => entry.function.name).sort();

describe("@toolshed/client in an AI SDK loop against a running Toolshed", () => {
  const startScripted = useScriptedServer();
  let toolshed: ToolshedHttpServer;
  let token: string;

  beforeEach(async () => {
    const db = await useFreshDatabase();
    await seed(db, { demo: true });
    token = await createTestToken(db, "read", "agent");
    toolshed = await startToolshedHttpServer();
  });

  afterEach(async () => {
    await toolshed.close();
  });

  /** One generateText loop of the build agent over the demo catalog, with the scripted model's replies. */
  async function runTurn(replies: ScriptedReply[], prompt: string, execute?: Record<string, ToolImplementation>) {
    const scripted = await startScripted(replies);
    const client = createToolshed({ baseUrl: toolshed.url, token, catalog: "demo" });
    const turn = await client.aiSdkTools({ model: "gpt-5", agent: "build", execute });
    const model = createOpenAICompatible({ name: "scripted", baseURL: scripted.url }).chatModel(SCRIPTED_MODEL_ID);
    const result = await generateText({
      model,
      tools: turn.tools,
      prepareStep: turn.prepareStep,
      repairToolCall: turn.repairToolCall,
      stopWhen: stepCountIs(5),
      prompt,
    });
    return { scripted, turn, result };
  }

  it("offers the turn's preselection at step 0, and a tool ToolSearch found at the next step, where the model calls it", async () => {
    const createIssue = vi.fn(async () => ({ number: 7 }));
    const { scripted, turn, result } = await runTurn(
      [
        { toolCalls: [{ name: TOOL_SEARCH_NAME, arguments: { query: "select:github_create_issue" } }] },
        { toolCalls: [{ name: "github_create_issue", arguments: ISSUE }] },
        { text: "Posted, and filed issue #7." },
      ],
      "Post to the #releases Slack channel that v2 is out.",
      { github_create_issue: createIssue },
    );

    const preselection = turn.preselection()!;
    const step0 = offered(scripted.chatRequests[0]);
    expect(step0).toEqual(preselection.toolSet.map((entry) => entry.name).sort());
    expect(step0).toContain(TOOL_SEARCH_NAME);
    expect(step0).not.toContain("github_create_issue");
    expect(step0.length).toBeLessThan(Object.keys(turn.tools).length);

    expect(result.steps[0].toolCalls.map((call) => call.toolName)).toEqual([TOOL_SEARCH_NAME]);
    expect(offered(scripted.chatRequests[1])).toEqual([...step0, "github_create_issue"].sort());
    expect(result.steps[1].toolCalls.map((call) => call.toolName)).toEqual(["github_create_issue"]);
    expect(createIssue).toHaveBeenCalledWith(ISSUE, expect.anything());
    expect(result.text).toBe("Posted, and filed issue #7.");

    // Every request went over HTTP, in this order, and the ToolSearch joined the preselection's conversation.
    expect(toolshed.requests).toEqual(["POST /api/catalogs/demo/tool-list", "POST /api/catalogs/demo/preselect", "POST /api/catalogs/demo/tool-search"]);
    expect(turn.conversationId()).toBe(preselection.conversationId);
  });

  it("answers a call to a tool that is not active at this step with how to load it", async () => {
    const { result } = await runTurn(
      [{ toolCalls: [{ name: "github_create_issue", arguments: ISSUE }] }, { text: "I will search first." }],
      "Say hello in Slack.",
    );

    const error = result.steps[0].content.find((part) => part.type === "tool-error");
    expect(String(error && "error" in error ? error.error : "")).toContain('load it with ToolSearch first (query "select:github_create_issue")');
  });

  it("throws Toolshed's error with its status and code", async () => {
    const client = createToolshed({ baseUrl: toolshed.url, token: "tsk_not_a_token", catalog: "demo" });
    const failure = await client.toolList({ model: "gpt-5", agent: "build" }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ToolshedApiError);
    expect(failure).toMatchObject({ status: 401, code: "unauthorized" });
  });
});
