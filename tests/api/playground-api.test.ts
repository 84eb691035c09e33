import { readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import * as conversationRoute from "@/app/api/catalogs/[catalog]/conversations/[id]/route";
import * as playgroundRoute from "@/app/api/catalogs/[catalog]/playground/route";
import * as decisionRoute from "@/app/api/decisions/[id]/route";
import type { Db } from "@/db/client";
import { decisions } from "@/db/schema";
import { seed } from "@/db/seed";
import type { PlaygroundEvent } from "@/lib/playground/events";
import { startScriptedOpenAIServer, type Script, type ScriptedOpenAIServer } from "../support/scripted-openai-server";
import { jsonRequest, params, useFreshDatabase } from "./helpers";

const demo = params({ catalog: "demo" });
const e2eScript = JSON.parse(readFileSync("e2e/fixtures/playground-script.json", "utf8"));
const turnConfig = { model: "claude-sonnet-4-5", agent: "build" };

async function play(body: Record<string, unknown>): Promise<PlaygroundEvent[]> {
  const response = await playgroundRoute.POST(jsonRequest("POST", { ...turnConfig, ...body }), demo);
  expect(response.status).toBe(200);
  const text = await response.text();
  return text
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
}

function only<T extends PlaygroundEvent["type"]>(events: PlaygroundEvent[], type: T) {
  return events.filter((event): event is Extract<PlaygroundEvent, { type: T }> => event.type === type);
}

/** The scripted server as the main model while the calling describe block runs. */
function useScriptedMainModel(script: Script): () => ScriptedOpenAIServer {
  let server: ScriptedOpenAIServer;
  beforeAll(async () => {
    server = await startScriptedOpenAIServer(script);
    process.env.TOOLSHED_MAIN_MODEL = "openai-compatible:scripted-model";
    process.env.TOOLSHED_OPENAI_COMPATIBLE_BASE_URL = server.url;
  });
  afterAll(async () => {
    delete process.env.TOOLSHED_MAIN_MODEL;
    delete process.env.TOOLSHED_OPENAI_COMPATIBLE_BASE_URL;
    await server.close();
  });
  return () => server;
}

describe("playground with a main model (scripted OpenAI-compatible server)", () => {
  const scripted = useScriptedMainModel(e2eScript);
  let db: Db;
  beforeEach(() => {
    db = useFreshDatabase();
    seed(db, { demo: true });
  });

  it("runs two turns: history carries a tool over, ToolSearch loads a missing one for the next step", async () => {
    const first = await play({ message: "Please file the login bug on GitHub" });
    const preselection = only(first, "preselection")[0];
    const conversationId = preselection.conversationId;
    expect(preselection.turn.toolSet).toContainEqual({ name: "github_create_issue", origin: "preselected" });
    expect(only(first, "tool-call")[0]).toMatchObject({ toolName: "github_create_issue", simulated: true, active: true });
    expect(only(first, "finish")[0].reason).toBe("awaiting-tool-results");

    const call = only(first, "tool-call")[0];
    const answered = await play({ conversationId, toolResults: [{ toolCallId: call.toolCallId, toolName: call.toolName, output: "Created issue #42" }] });
    expect(
      only(answered, "text-delta")
        .map((event) => event.text)
        .join(""),
    ).toBe("Created issue #42 for the login bug.");

    const second = await play({ conversationId, message: "Check the signup page in the browser and take a screenshot", k: 3 });
    const turn2 = only(second, "preselection")[0].turn;
    expect(turn2.toolSet).toContainEqual({ name: "github_create_issue", origin: "history" });
    expect(turn2.toolSet.map((entry) => entry.name)).not.toContain("slack_post_message");
    const secondCall = only(second, "tool-call")[0];
    expect(secondCall).toMatchObject({ toolName: "github_create_issue", active: true });

    const searched = await play({
      conversationId,
      toolResults: [{ toolCallId: secondCall.toolCallId, toolName: secondCall.toolName, output: "Created issue #43" }],
    });
    const search = only(searched, "tool-search")[0];
    expect(search).toMatchObject({ path: "semantic", selector: "local" });
    expect(search.found).toContain("slack_post_message");
    const slackCall = only(searched, "tool-call").find((event) => event.toolName === "slack_post_message");
    expect(slackCall).toMatchObject({ active: true, simulated: true });
    expect(only(searched, "finish")[0]).toMatchObject({ reason: "awaiting-tool-results" });
    expect(only(searched, "finish")[0].activeTools).toContain("slack_post_message");

    // The step after ToolSearch offered slack_post_message to the model; the one before did not.
    const requests = scripted().chatRequests.filter((request) => request.stream);
    const toolNames = (index: number) => (requests.at(index)?.tools ?? []).map((tool) => tool.function.name);
    expect(toolNames(-2)).not.toContain("slack_post_message");
    expect(toolNames(-1)).toContain("slack_post_message");

    const done = await play({ conversationId, toolResults: [{ toolCallId: slackCall!.toolCallId, toolName: "slack_post_message", output: "posted to #eng" }] });
    expect(only(done, "finish")[0].reason).toBe("stop");

    const stored = await (await conversationRoute.GET(jsonRequest("GET"), params({ catalog: "demo", id: conversationId }))).json();
    expect(stored.conversation.history).toEqual(expect.arrayContaining(["github_create_issue", "slack_post_message"]));
    expect(stored.messages.map((message: { role: string }) => message.role)).toEqual([
      "user",
      "assistant",
      "tool",
      "assistant",
      "user",
      "assistant",
      "tool",
      "assistant",
      "tool",
      "assistant",
    ]);

    // The second turn's decision refers to the conversation instead of copying it, and its detail reads it back.
    const storedInput = db
      .select({ input: sql<string>`${decisions.input}` })
      .from(decisions)
      .where(sql`${decisions.id} = ${turn2.decisionId}`)
      .get()!.input;
    expect(JSON.parse(storedInput)).toMatchObject({ messages: [], transcript: { count: 3 } });
    const decision = (await (await decisionRoute.GET(jsonRequest("GET"), params({ id: turn2.decisionId }))).json()).decision;
    expect(decision.input.messages).toEqual([
      { role: "user", content: "Please file the login bug on GitHub" },
      { role: "assistant", content: "Created issue #42 for the login bug." },
      { role: "user", content: "Check the signup page in the browser and take a screenshot" },
    ]);
    // The turn is kept beside its user message, which is stored once.
    expect(stored.messages[4]).toMatchObject({ role: "user", details: { decisionId: turn2.decisionId } });
  });
});

describe("playground turns of several steps, and aborted ones", () => {
  const scripted = useScriptedMainModel({
    rules: [
      { lastMessageContains: "tell the team", reply: { toolCalls: [{ name: "ToolSearch", arguments: { query: "select:slack_post_message" } }] } },
      { lastMessageContains: "callable from your next step", reply: { text: "slack_post_message can tell them." } },
      { lastMessageContains: "write a long essay", reply: { hang: true, textFirst: "Once upon a time" } },
    ],
    otherwise: { text: "The script has no reply for this request." },
  });
  beforeEach(() => {
    seed(useFreshDatabase(), { demo: true });
    for (const log of [scripted().requests, scripted().chatRequests, scripted().abandoned]) log.length = 0;
  });

  async function storedMessages(conversationId: string) {
    return (await (await conversationRoute.GET(jsonRequest("GET"), params({ catalog: "demo", id: conversationId }))).json()).messages;
  }

  it("stores the messages of every step: the tool call, its result and the answer", async () => {
    const events = await play({ message: "Please tell the team on Slack" });
    expect(only(events, "finish")[0].reason).toBe("stop");
    const conversationId = only(events, "preselection")[0].conversationId;
    const assistant = (await storedMessages(conversationId)).at(-1);
    const modelMessages = assistant.details.modelMessages as { role: string; content: { type: string; toolName?: string; text?: string }[] }[];
    expect(modelMessages.map((message) => [message.role, message.content.map((part) => part.type)])).toEqual([
      ["assistant", ["tool-call"]],
      ["tool", ["tool-result"]],
      ["assistant", ["text"]],
    ]);
    expect(modelMessages[0].content[0].toolName).toBe("ToolSearch");
    expect(modelMessages[2].content[0].text).toBe("slack_post_message can tell them.");

    // The next turn's model reads the ToolSearch call and its result back.
    await play({ conversationId, message: "Thanks" });
    const sent = JSON.stringify(scripted().chatRequests.at(-1)!.messages);
    expect(sent).toContain("select:slack_post_message");
    expect(sent).toContain("callable from your next step");
  });

  async function startHangingTurn(signal?: AbortSignal) {
    const request = new Request(jsonRequest("POST", { ...turnConfig, message: "Please write a long essay" }), { signal });
    const response = await playgroundRoute.POST(request, demo);
    expect(response.status).toBe(200);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let received = "";
    while (!received.includes('"text-delta"')) received += (await reader.read()).value ?? "";
    const conversationId = (JSON.parse(received.split("\n")[0]) as Extract<PlaygroundEvent, { type: "preselection" }>).conversationId;
    return { reader, conversationId };
  }

  async function expectAborted(conversationId: string) {
    // The main model's call was aborted: its connection closed, and no further step was asked for.
    await vi.waitFor(() => expect(scripted().abandoned).toHaveLength(1));
    expect(scripted().chatRequests).toHaveLength(1);
    await vi.waitFor(async () =>
      expect((await storedMessages(conversationId)).map((message: { role: string }) => message.role)).toEqual(["user", "assistant"]),
    );
    const assistant = (await storedMessages(conversationId)).at(-1);
    expect(assistant.content).toContain("Once");
    expect(assistant.details.events.at(-1)).toMatchObject({ type: "finish", reason: "aborted" });
  }

  it("aborts the model's call when the client stops reading (Stop, a closed tab)", async () => {
    const { reader, conversationId } = await startHangingTurn();
    await reader.cancel();
    await expectAborted(conversationId);
  });

  it("aborts the model's call when the request is aborted", async () => {
    const client = new AbortController();
    const { conversationId } = await startHangingTurn(client.signal);
    client.abort();
    await expectAborted(conversationId);
  });
});

describe("playground without a main model", () => {
  beforeEach(() => {
    seed(useFreshDatabase(), { demo: true });
  });

  it("still answers each message with the preselection and the tool set", async () => {
    const events = await play({ message: "What's the weather in Paris tomorrow?" });
    expect(events.map((event) => event.type)).toEqual(["preselection", "finish"]);
    expect(only(events, "finish")[0].reason).toBe("no-main-model");
    expect(only(events, "preselection")[0].turn.toolSet.at(-1)).toEqual({ name: "ToolSearch", origin: "entry" });
  });

  it("refuses tool results without a conversation and an empty exchange", async () => {
    const response = await playgroundRoute.POST(jsonRequest("POST", { ...turnConfig, toolResults: [{ toolCallId: "x", toolName: "read", output: "" }] }), demo);
    expect(response.status).toBe(400);
    expect((await playgroundRoute.POST(jsonRequest("POST", turnConfig), demo)).status).toBe(400);
  });
});
