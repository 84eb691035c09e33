import { readFileSync } from "node:fs";
import type { InferUIMessageChunk } from "ai";
import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import * as conversationRoute from "@/app/api/catalogs/[catalog]/conversations/[id]/route";
import * as playgroundRoute from "@/app/api/catalogs/[catalog]/playground/route";
import * as toolRoute from "@/app/api/catalogs/[catalog]/tools/[name]/route";
import * as decisionRoute from "@/app/api/decisions/[id]/route";
import * as replayRoute from "@/app/api/decisions/[id]/replay/route";
import { connectWithSecret } from "@/app/_services/mcp-connections";
import { callMcpServerTool, disconnectMcpServer } from "@/app/_services/sources";
import { pendingSimulatedCalls, turnsOf, uiMessagesOf } from "@/components/playground-chat";
import type { Db } from "@/db/client";
import { createMcpServer } from "@/db/queries/mcp-servers";
import { decisions } from "@/db/tables";
import { seed } from "@/db/seed";
import type { PlaygroundDataParts, PlaygroundUIMessage } from "@/lib/playground/messages";
import { McpConnections } from "@/lib/sources/mcp";
import { useEnv } from "../sources/helpers";
import { routeApiRequest } from "../support/api-routes";
import { serveKeyedMcp } from "../support/keyed-mcp-server";
import { startScriptedOpenAIServer, type Script, type ScriptedOpenAIServer } from "../support/scripted-openai-server";
import { APP_ORIGIN, apiRequest, asInstanceAdmin, jsonRequest, params, useFreshDatabase } from "./helpers";
import { signedInPerson } from "./sessions";

const demo = params({ catalog: "demo" });
const e2eScript = JSON.parse(readFileSync("e2e/fixtures/playground-script.json", "utf8"));
const turnConfig = { model: "claude-sonnet-4-5", agent: "build" };

type Chunk = InferUIMessageChunk<PlaygroundUIMessage>;

/** The chunks of a UI message stream's server-sent events, up to [DONE]. */
function chunksOf(events: string): Chunk[] {
  return events
    .split("\n\n")
    .flatMap((event) => (event.startsWith("data: ") && event !== "data: [DONE]" ? [JSON.parse(event.slice("data: ".length)) as Chunk] : []));
}

async function play(body: Record<string, unknown>): Promise<Chunk[]> {
  const response = await playgroundRoute.POST(jsonRequest("POST", { ...turnConfig, ...body }), demo);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toContain("text/event-stream");
  return chunksOf(await response.text());
}

function only<T extends Chunk["type"]>(chunks: Chunk[], type: T) {
  return chunks.filter((chunk): chunk is Extract<Chunk, { type: T }> => chunk.type === type);
}

/** The data of the stream's `data-<name>` parts. */
function dataOf<N extends keyof PlaygroundDataParts>(chunks: Chunk[], name: N): PlaygroundDataParts[N][] {
  return chunks.flatMap((chunk) => (chunk.type === `data-${name}` && "data" in chunk ? [chunk.data as PlaygroundDataParts[N]] : []));
}

const textOf = (chunks: Chunk[]) =>
  only(chunks, "text-delta")
    .map((chunk) => chunk.delta)
    .join("");
const finishReasonOf = (chunks: Chunk[]) => only(chunks, "finish")[0]?.finishReason;
const conversationOf = (chunks: Chunk[]) => dataOf(chunks, "conversation")[0].conversationId;

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
  beforeEach(async () => {
    db = await useFreshDatabase();
    await seed(db, { demo: true });
  });

  it("runs two turns: history carries a tool over, ToolSearch loads a missing one for the next step", async () => {
    const first = await play({ message: "Please file the login bug on GitHub" });
    expect(only(first, "data-conversation")[0].transient).toBe(true);
    const conversationId = conversationOf(first);
    const preselection = dataOf(first, "preselection")[0];
    expect(preselection.toolSet).toContainEqual({ name: "github_create_issue", origin: "preselected" });
    expect(dataOf(first, "tool-set")[0].activeTools).toEqual(expect.arrayContaining(["github_create_issue", "ToolSearch"]));
    // A simulated tool's call carries the placeholder result the client offers; the run ends at it.
    const call = only(first, "tool-input-available")[0];
    expect(call).toMatchObject({ toolName: "github_create_issue", dynamic: true, toolMetadata: { simulated: true } });
    expect(JSON.parse(String(call.toolMetadata?.placeholder))).toMatchObject({ simulated: true, tool: "github_create_issue" });
    expect(only(first, "tool-output-available")).toEqual([]);
    expect(finishReasonOf(first)).toBe("tool-calls");
    // No start chunk: a continuation's parts go into the answer it continues.
    expect(only(first, "start")).toEqual([]);

    const answered = await play({ conversationId, toolResults: [{ toolCallId: call.toolCallId, toolName: call.toolName, output: "Created issue #42" }] });
    expect(dataOf(answered, "preselection")).toEqual([]);
    expect(textOf(answered)).toBe("Created issue #42 for the login bug.");
    // The model's call of a simulated tool is a use the selector learns from, with the words of the request.
    const learned = async () =>
      (await (await routeApiRequest(apiRequest("/api/catalogs/demo/learning?tool=github_create_issue"))).json()) as { words: { word: string }[] };
    await vi.waitFor(async () => expect((await learned()).words.map((word) => word.word)).toContain("login"));

    const second = await play({ conversationId, message: "Check the signup page in the browser and take a screenshot", k: 3 });
    const turn2 = dataOf(second, "preselection")[0];
    expect(turn2.toolSet).toContainEqual({ name: "github_create_issue", origin: "history" });
    expect(turn2.toolSet.map((entry) => entry.name)).not.toContain("slack_post_message");
    const secondCall = only(second, "tool-input-available")[0];
    expect(secondCall).toMatchObject({ toolName: "github_create_issue", toolMetadata: { simulated: true } });

    const searched = await play({
      conversationId,
      toolResults: [{ toolCallId: secondCall.toolCallId, toolName: secondCall.toolName, output: "Created issue #43" }],
    });
    const searchCall = only(searched, "tool-input-available").find((chunk) => chunk.toolName === "ToolSearch")!;
    const searchIndex = searched.findIndex((chunk) => chunk.type === "data-tool-search");
    // The registry's verification follows the call's output, under the call's id.
    expect(searched[searchIndex]).toMatchObject({ id: searchCall.toolCallId });
    expect(searched[searchIndex - 1]).toMatchObject({ type: "tool-output-available", toolCallId: searchCall.toolCallId });
    const search = dataOf(searched, "tool-search")[0];
    expect(search).toMatchObject({ query: "post a message to a Slack channel", path: "semantic", selector: "local" });
    expect(search.found).toContain("slack_post_message");
    const [before, after] = dataOf(searched, "tool-set").map((set) => set.activeTools);
    expect(before).not.toContain("slack_post_message");
    expect(after).toContain("slack_post_message");
    const slackCall = only(searched, "tool-input-available").find((chunk) => chunk.toolName === "slack_post_message");
    expect(slackCall).toMatchObject({ toolMetadata: { simulated: true } });
    expect(finishReasonOf(searched)).toBe("tool-calls");

    // The step after ToolSearch offered slack_post_message to the model; the one before did not.
    const requests = scripted().chatRequests.filter((request) => request.stream);
    const toolNames = (index: number) => (requests.at(index)?.tools ?? []).map((tool) => tool.function.name);
    expect(toolNames(-2)).not.toContain("slack_post_message");
    expect(toolNames(-1)).toContain("slack_post_message");

    const done = await play({ conversationId, toolResults: [{ toolCallId: slackCall!.toolCallId, toolName: "slack_post_message", output: "posted to #eng" }] });
    expect(finishReasonOf(done)).toBe("stop");

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

    // The stored conversation redraws as the chat showed it: per turn the preselection and every exchange, results filled in.
    const turns = turnsOf(uiMessagesOf(stored.messages));
    expect(turns.map((turn) => [turn.message, turn.details?.decisionId])).toEqual([
      ["Please file the login bug on GitHub", preselection.decisionId],
      ["Check the signup page in the browser and take a screenshot", turn2.decisionId],
    ]);
    const redrawn = turns[1].answer!.parts;
    expect(redrawn.filter((part) => part.type === "data-tool-search").map((part) => part.data)).toEqual([search]);
    expect(redrawn.find((part) => part.type === "dynamic-tool" && part.toolName === "slack_post_message")).toMatchObject({
      state: "output-available",
      output: "posted to #eng",
      toolMetadata: { simulated: true },
    });
    expect(redrawn.findLast((part) => part.type === "text")).toMatchObject({ text: "Both issues are filed and the team has been told in #eng." });
    expect(turns.map((turn) => pendingSimulatedCalls(turn.answer))).toEqual([[], []]);

    // The second turn's decision refers to the conversation instead of copying it, and its detail reads it back.
    const [{ input: storedInput }] = await db
      .select({ input: sql<string>`${decisions.input}` })
      .from(decisions)
      .where(sql`${decisions.id} = ${turn2.decisionId}`);
    expect(JSON.parse(storedInput)).toMatchObject({ messages: [], transcript: { count: 3 } });
    const decision = (await (await decisionRoute.GET(jsonRequest("GET"), params({ id: turn2.decisionId }))).json()).decision;
    expect(decision.input.messages).toEqual([
      { role: "user", content: "Please file the login bug on GitHub" },
      { role: "assistant", content: "Created issue #42 for the login bug." },
      { role: "user", content: "Check the signup page in the browser and take a screenshot" },
    ]);
    // The turn is kept beside its user message, which is stored once.
    expect(stored.messages[4]).toMatchObject({ role: "user", details: { decisionId: turn2.decisionId } });

    // The main model's ToolSearch decision replays against the catalog as it is now.
    const disabled = await toolRoute.PATCH(jsonRequest("PATCH", { enabled: false }), params({ catalog: "demo", name: "slack_post_message" }));
    expect(disabled.status).toBe(200);
    const replayed = await replayRoute.POST(apiRequest("/api", { method: "POST" }), params({ id: search.decisionId }));
    expect(replayed.status).toBe(200);
    expect((await replayed.json()).diff.rejected).toContainEqual({ name: "slack_post_message", reason: "not registered: disabled in the catalog" });
  });
});

describe("playground turns of several steps, and aborted ones", () => {
  const scripted = useScriptedMainModel({
    rules: [
      { lastMessageContains: "tell the team", reply: { toolCalls: [{ name: "ToolSearch", arguments: { query: "select:slack_post_message" } }] } },
      { lastMessageContains: "callable from your next step", reply: { text: "slack_post_message can tell them." } },
      { lastMessageContains: "weather in Paris", reply: { toolCalls: [{ name: "slack_post_message", arguments: { channel: "#eng", text: "Sunny" } }] } },
      { lastMessageContains: "not available at this step", reply: { text: "I will load it with ToolSearch first." } },
      { lastMessageContains: "write a long essay", reply: { hang: true, textFirst: "Once upon a time" } },
    ],
    otherwise: { text: "The script has no reply for this request." },
  });
  beforeEach(async () => {
    await seed(await useFreshDatabase(), { demo: true });
    for (const log of [scripted().requests, scripted().chatRequests, scripted().abandoned]) log.length = 0;
  });

  async function storedMessages(conversationId: string) {
    return (await (await conversationRoute.GET(jsonRequest("GET"), params({ catalog: "demo", id: conversationId }))).json()).messages;
  }

  it("stores the messages of every step: the tool call, its result and the answer", async () => {
    const chunks = await play({ message: "Please tell the team on Slack" });
    expect(finishReasonOf(chunks)).toBe("stop");
    const conversationId = conversationOf(chunks);
    const assistant = (await storedMessages(conversationId)).at(-1);
    const modelMessages = assistant.details.modelMessages as { role: string; content: { type: string; toolName?: string; text?: string }[] }[];
    expect(modelMessages.map((message) => [message.role, message.content.map((part) => part.type)])).toEqual([
      ["assistant", ["tool-call"]],
      ["tool", ["tool-result"]],
      ["assistant", ["text"]],
    ]);
    expect(modelMessages[0].content[0].toolName).toBe("ToolSearch");
    expect(modelMessages[2].content[0].text).toBe("slack_post_message can tell them.");
    // What the client was shown is stored beside them, but for the preselection, which its user message keeps.
    const parts = assistant.details.parts as { type: string }[];
    expect(parts.map((part) => part.type)).toEqual([
      "step-start",
      "data-tool-set",
      "tool-ToolSearch",
      "data-tool-search",
      "step-start",
      "data-tool-set",
      "text",
    ]);

    // The next turn's model reads the ToolSearch call and its result back.
    await play({ conversationId, message: "Thanks" });
    const sent = JSON.stringify(scripted().chatRequests.at(-1)!.messages);
    expect(sent).toContain("select:slack_post_message");
    expect(sent).toContain("callable from your next step");
  });

  it("answers a call to a tool outside the step's tool set with an explicit error result, which the model reads", async () => {
    const chunks = await play({ message: "What's the weather in Paris tomorrow?", k: 1 });
    expect(dataOf(chunks, "tool-set")[0].activeTools).not.toContain("slack_post_message");
    const refused = only(chunks, "tool-input-error")[0];
    expect(refused).toMatchObject({ toolName: "slack_post_message" });
    expect(refused.errorText).toBe(
      'slack_post_message is not available at this step: load it with ToolSearch first (query "select:slack_post_message"), then call it at the next step.',
    );
    expect(textOf(chunks)).toBe("I will load it with ToolSearch first.");
    expect(finishReasonOf(chunks)).toBe("stop");
  });

  async function startHangingTurn(signal?: AbortSignal) {
    const request = new Request(jsonRequest("POST", { ...turnConfig, message: "Please write a long essay" }), { signal });
    const response = await playgroundRoute.POST(request, demo);
    expect(response.status).toBe(200);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let received = "";
    while (!chunksOf(received).some((chunk) => chunk.type === "text-delta")) received += (await reader.read()).value ?? "";
    return { reader, conversationId: conversationOf(chunksOf(received)) };
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
    expect(assistant.details.finishReason).toBe("aborted");
  }

  it("aborts the model's call when the client stops reading (Stop, a closed tab)", async () => {
    const { reader, conversationId } = await startHangingTurn();
    await reader.cancel();
    await expectAborted(conversationId);
  });

  it("aborts the model's call when the request is aborted, and says so at the end of the stream", async () => {
    const client = new AbortController();
    const { reader, conversationId } = await startHangingTurn(client.signal);
    client.abort();
    let rest = "";
    for (let read = await reader.read(); !read.done; read = await reader.read()) rest += read.value;
    expect(chunksOf(rest).map((chunk) => chunk.type)).toContain("abort");
    await expectAborted(conversationId);
  });
});

describe("playground Retry after a failed request", () => {
  const MESSAGE = "Which Linear tickets are assigned to me?";
  const FILE_BUG = "Please file the login bug on GitHub";
  /** While true, the main model refuses every request, as a model's error would end a send. */
  let failing = true;
  const scripted = useScriptedMainModel((request) => {
    if (failing) return { status: 400, body: { error: { message: "The model does not accept this request.", type: "invalid_request_error" } } };
    const last = JSON.stringify(request.body?.messages?.at(-1));
    if (last.includes("Created issue")) return { text: "Filed." };
    return last.includes(FILE_BUG) ? { toolCalls: [{ name: "github_create_issue", arguments: { title: "Login bug" } }] } : { text: "Answered." };
  });
  beforeEach(async () => {
    failing = true;
    await seed(await useFreshDatabase(), { demo: true });
    scripted().chatRequests.length = 0;
  });

  async function storedMessages(conversationId: string): Promise<{ role: string; content: string; details: Record<string, unknown> | null }[]> {
    return (await (await conversationRoute.GET(jsonRequest("GET"), params({ catalog: "demo", id: conversationId }))).json()).messages;
  }

  it("stores a message sent again under its key after the model failed once: the conversation and the model have it once", async () => {
    const failed = await play({ message: MESSAGE, messageKey: "key-1" });
    expect(only(failed, "error")).toHaveLength(1);
    const conversationId = conversationOf(failed);
    expect((await storedMessages(conversationId)).filter((message) => message.role === "user")).toHaveLength(1);

    failing = false;
    const retried = await play({ conversationId, message: MESSAGE, messageKey: "key-1" });
    expect(only(retried, "error")).toEqual([]);
    const [turn] = dataOf(retried, "preselection");
    const users = (await storedMessages(conversationId)).filter((message) => message.role === "user");
    expect(users.map((message) => message.content)).toEqual([MESSAGE]);
    // The message keeps the turn of the send that answered it, and the decision refers to it, not to a copy.
    expect(users[0].details).toMatchObject({ decisionId: turn.decisionId, messageKey: "key-1" });
    const decision = await (await decisionRoute.GET(jsonRequest("GET"), params({ id: turn.decisionId }))).json();
    expect(decision.decision.input.messages).toEqual([{ role: "user", content: MESSAGE }]);
    const sent = scripted()
      .chatRequests.at(-1)!
      .messages!.filter((message) => message.role === "user");
    expect(sent).toHaveLength(1);

    // The same words sent as a new message (another key) are a new message.
    await play({ conversationId, message: MESSAGE, messageKey: "key-2" });
    expect((await storedMessages(conversationId)).filter((message) => message.role === "user")).toHaveLength(2);
  });

  it("stores the results of simulated calls sent again after the model failed once only once", async () => {
    failing = false;
    const first = await play({ message: FILE_BUG });
    const conversationId = conversationOf(first);
    const call = only(first, "tool-input-available")[0];
    const toolResults = [{ toolCallId: call.toolCallId, toolName: call.toolName, output: "Created issue #42" }];

    failing = true;
    expect(only(await play({ conversationId, toolResults }), "error")).toHaveLength(1);
    failing = false;
    const retried = await play({ conversationId, toolResults });
    expect(textOf(retried)).toBe("Filed.");
    const stored = (await storedMessages(conversationId)).filter((message) => message.role === "tool");
    expect(stored).toHaveLength(1);
    const sent = scripted()
      .chatRequests.at(-1)!
      .messages!.filter((message) => message.role === "tool");
    expect(sent).toHaveLength(1);
  });
});

describe("playground calls of live MCP tools", () => {
  useEnv({ TOOLSHED_MCP_STDIO_COMMANDS: `${process.execPath} mcp-servers/demo-server.mjs` });
  useScriptedMainModel({
    rules: [
      {
        lastMessageContains: "call the notes tools",
        reply: { toolCalls: [{ name: "ToolSearch", arguments: { query: "select:notes__notes_get,notes__notes_create" } }] },
      },
      {
        lastMessageContains: "callable from your next step",
        reply: {
          toolCalls: [
            { name: "notes__notes_get", arguments: {} },
            { name: "notes__notes_create", arguments: { title: "Leaked note", body: "Never stored.", tags: ["Not a tag"] } },
          ],
        },
      },
      { lastMessageContains: "do not match the input schema", reply: { text: "I will correct the arguments." } },
    ],
    otherwise: { text: "The script has no reply for this request." },
  });
  let db: Db;
  beforeEach(async () => {
    db = await useFreshDatabase();
    await seed(db, { demo: true });
    const server = { name: "notes", transport: "stdio", command: process.execPath, args: ["mcp-servers/demo-server.mjs"] };
    const added = await routeApiRequest(
      apiRequest("/api/catalogs/demo/mcp-servers", {
        method: "POST",
        body: JSON.stringify(server),
        headers: { ...(await asInstanceAdmin()), "content-type": "application/json" },
      }),
    );
    expect(added.status).toBe(201);
  });
  afterEach(async () => {
    await routeApiRequest(apiRequest("/api/catalogs/demo/mcp-servers/notes", { method: "DELETE", headers: await asInstanceAdmin() }));
  });

  it("refuses arguments the tool's stored schema does not accept with an error the model reads, and sends nothing to the server", async () => {
    const upstream = vi.spyOn(McpConnections.prototype, "call");
    try {
      const chunks = await play({ message: "Please call the notes tools" });
      // The two calls run side by side, so their outputs arrive in either order.
      const notesCalls = new Map(
        only(chunks, "tool-input-available").flatMap((chunk) => (chunk.toolName.startsWith("notes__") ? [[chunk.toolCallId, chunk.toolName] as const] : [])),
      );
      const outputs = Object.fromEntries(
        only(chunks, "tool-output-available").flatMap((chunk) => {
          const toolName = notesCalls.get(chunk.toolCallId);
          return toolName ? [[toolName, chunk.output]] : [];
        }),
      );
      expect(outputs).toEqual({
        notes__notes_get: {
          error:
            "The arguments do not match the input schema of notes__notes_get: must have required property 'id'. notes__notes_get was not called; call it again with arguments that match its schema.",
        },
        notes__notes_create: { error: expect.stringContaining('the input schema of notes__notes_create at /tags/0: must match pattern "^[a-z0-9-]+$".') },
      });
      expect(textOf(chunks)).toBe("I will correct the arguments.");
      expect(upstream).not.toHaveBeenCalled();
      // The server never saw the note.
      const found = await callMcpServerTool(db, "demo", "notes", "notes_search", { query: "Leaked" });
      expect(found.structuredContent).toEqual({ matches: [] });
    } finally {
      upstream.mockRestore();
    }
  });

  it("counts its live calls in the catalog's usage figures, as the gateway's", async () => {
    await play({ message: "Please call the notes tools" });
    const answer = await routeApiRequest(apiRequest("/api/catalogs/demo/usage-stats?window=1h"));
    const { tools, servers } = await answer.json();
    const refused = { calls: 1, errors: 1, errorsByKind: { refused: 1, timeout: 0, upstream: 0 }, calledWhenOffered: 1 };
    expect(tools.find((tool: { name: string }) => tool.name === "notes__notes_get")).toMatchObject(refused);
    expect(tools.find((tool: { name: string }) => tool.name === "notes__notes_create")).toMatchObject(refused);
    expect(servers).toEqual([expect.objectContaining({ name: "notes", calls: 2, errors: 2 })]);
  });
});

describe("playground without a main model", () => {
  beforeEach(async () => {
    await seed(await useFreshDatabase(), { demo: true });
  });

  it("still answers each message with the preselection and the tool set", async () => {
    const chunks = await play({ message: "What's the weather in Paris tomorrow?" });
    expect(chunks.map((chunk) => chunk.type)).toEqual(["data-conversation", "data-preselection"]);
    expect(dataOf(chunks, "preselection")[0].toolSet.at(-1)).toEqual({ name: "ToolSearch", origin: "entry" });
  });

  it("refuses tool results without a conversation and an empty exchange", async () => {
    const response = await playgroundRoute.POST(jsonRequest("POST", { ...turnConfig, toolResults: [{ toolCallId: "x", toolName: "read", output: "" }] }), demo);
    expect(response.status).toBe(400);
    expect((await playgroundRoute.POST(jsonRequest("POST", turnConfig), demo)).status).toBe(400);
  });
});

describe("playground calls of a per-person MCP server", () => {
  useEnv({ TOOLSHED_MCP_ALLOW_PRIVATE: "1" });
  useScriptedMainModel({
    rules: [
      { lastMessageContains: "who am I", reply: { toolCalls: [{ name: "ToolSearch", arguments: { query: "select:keyed__whoami" } }] } },
      { lastMessageContains: "callable from your next step", reply: { toolCalls: [{ name: "keyed__whoami", arguments: {} }] } },
    ],
    otherwise: { text: "Done." },
  });
  let db: Db;
  let upstream: Awaited<ReturnType<typeof serveKeyedMcp>>;
  beforeEach(async () => {
    db = await useFreshDatabase();
    await seed(db, { demo: true });
    upstream = await serveKeyedMcp();
    const credentials = { mode: "per-user-secret", header: "Authorization", prefix: "Bearer " } as const;
    await createMcpServer(db, "demo", { name: "keyed", transport: "http", url: upstream.url, credentials }, "test");
  });
  afterEach(async () => {
    await disconnectMcpServer("demo", "keyed");
    await upstream.close();
  });

  /** What the playground's model read of its call of keyed__whoami, played with these headers. */
  async function whoamiOutput(headers: Record<string, string>): Promise<unknown> {
    const response = await playgroundRoute.POST(jsonRequest("POST", { ...turnConfig, message: "who am I?" }, headers), demo);
    const chunks = chunksOf(await response.text());
    const call = only(chunks, "tool-input-available").find((chunk) => chunk.toolName === "keyed__whoami")!;
    return only(chunks, "tool-output-available").find((chunk) => chunk.toolCallId === call.toolCallId)?.output;
  }

  it("calls it with the playing person's own credential, and tells an API token where a person connects", async () => {
    const ada = await signedInPerson(db, "ada@example.com");
    await connectWithSecret(db, ada.principal, "demo", "keyed", "ada-secret");
    await whoamiOutput({ cookie: ada.cookie, origin: APP_ORIGIN });
    expect(upstream.seen).toEqual(["Bearer ada-secret"]);
    expect(JSON.stringify(await whoamiOutput({}))).toContain(`${APP_ORIGIN}/connections?catalog=demo&server=keyed`);
    expect(upstream.seen).toHaveLength(1);
  });
});
