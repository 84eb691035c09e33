import { APICallError } from "ai";
import { describe, expect, it } from "vitest";
import {
  describeChatError,
  exchangeOf,
  pendingSimulatedCalls,
  resentExchange,
  simulatedResultsComplete,
  turnsOf,
  uiMessagesOf,
  withoutLastTurn,
} from "@/components/playground-chat";
import type { PlaygroundUIMessage, TurnDetails } from "@/lib/playground/messages";

type Part = PlaygroundUIMessage["parts"][number];

const simulated = { simulated: true, placeholder: '{ "simulated": true }' };
const user = (text: string): PlaygroundUIMessage => ({ id: `user-${text}`, role: "user", parts: [{ type: "text", text }] });
const answer = (...parts: Part[]): PlaygroundUIMessage => ({ id: "answer", role: "assistant", parts });
const call = (toolCallId: string, toolName: string, result?: { output: unknown }, toolMetadata = simulated): Part =>
  result
    ? { type: "dynamic-tool", toolCallId, toolName, toolMetadata, state: "output-available", input: {}, output: result.output }
    : { type: "dynamic-tool", toolCallId, toolName, toolMetadata, state: "input-available", input: {} };
const search = (toolCallId: string): Part => ({ type: "tool-ToolSearch", toolCallId, state: "output-available", input: { query: "q" }, output: {} });
const turn = { decisionId: "d1", toolSet: [{ name: "ToolSearch", origin: "entry" }] } as TurnDetails;

describe("the playground chat's requests", () => {
  it("carries a new message's text", () => {
    expect(exchangeOf([user("hello")])).toEqual({ message: "hello", messageKey: "user-hello" });
  });

  it("sends the failed message again under its key, so the server stores it once; other words are a new message", () => {
    const failed = exchangeOf([user("hello")]);
    expect(resentExchange(failed, "hello")).toEqual({ message: "hello", messageKey: "user-hello" });
    expect(resentExchange(failed, "hello there")).toBeUndefined();
    expect(resentExchange({ toolResults: [] }, "hello")).toBeUndefined();
    expect(resentExchange(undefined, "hello")).toBeUndefined();
  });

  it("carries the results supplied for the last step's simulated calls, not a live tool's, ToolSearch's or an earlier step's", () => {
    const messages = [
      user("file it and tell them"),
      answer(
        { type: "step-start" },
        call("c1", "github_create_issue", { output: "#42" }),
        { type: "step-start" },
        search("c2"),
        call("c3", "slack_post_message", { output: "posted" }),
        call("c4", "mcp_read", { output: { content: [] } }, { source: "mcp" } as never),
      ),
    ];
    expect(exchangeOf(messages)).toEqual({ toolResults: [{ toolCallId: "c3", toolName: "slack_post_message", output: "posted" }] });
    expect(simulatedResultsComplete({ messages })).toBe(true);
  });

  it("goes on by itself only once every call of the last step has a result and some were simulated here", () => {
    const waiting = [user("go"), answer({ type: "step-start" }, call("c1", "a", { output: "done" }), call("c2", "b"))];
    expect(simulatedResultsComplete({ messages: waiting })).toBe(false);
    // A run that ended on server-run calls (the step limit) has nothing to send.
    const serverOnly = [user("go"), answer({ type: "step-start" }, search("c3"))];
    expect(simulatedResultsComplete({ messages: serverOnly })).toBe(false);
  });

  it("waits for results only for simulated calls, not for refused or live ones", () => {
    const refused: Part = { type: "dynamic-tool", toolCallId: "c2", toolName: "b", toolMetadata: simulated, state: "output-error", input: {}, errorText: "no" };
    const live = call("c3", "mcp_read", undefined, {} as never);
    expect(pendingSimulatedCalls(answer(call("c1", "a"), refused, live)).map((part) => part.toolCallId)).toEqual(["c1"]);
    expect(pendingSimulatedCalls(undefined)).toEqual([]);
  });
});

describe("a stored conversation redrawn", () => {
  it("puts each turn's preselection and exchanges in one answer, with the simulated results filled in", () => {
    const messages = uiMessagesOf([
      { id: 1, role: "user", content: "file it", details: turn },
      { id: 2, role: "assistant", content: "", details: { parts: [{ type: "step-start" }, call("c1", "github_create_issue")] } },
      { id: 3, role: "tool", content: "", details: { simulatedResults: [{ toolCallId: "c1", toolName: "github_create_issue", output: "#42" }] } },
      { id: 4, role: "assistant", content: "Filed #42.", details: { parts: [{ type: "step-start" }, { type: "text", text: "Filed #42.", state: "done" }] } },
      { id: 5, role: "user", content: "weather?", details: { ...turn, decisionId: "d2" } },
    ]);
    expect(messages.map((message) => message.id)).toEqual(["user-1", "answer-1", "user-5", "answer-5"]);
    expect(messages[1].parts).toEqual([
      { type: "data-preselection", data: turn },
      { type: "step-start" },
      call("c1", "github_create_issue", { output: "#42" }),
      { type: "step-start" },
      { type: "text", text: "Filed #42.", state: "done" },
    ]);
    // No main model: the turn is its preselection alone.
    expect(messages[3].parts).toEqual([{ type: "data-preselection", data: { ...turn, decisionId: "d2" } }]);
    expect(turnsOf(messages).map((chatTurn) => [chatTurn.message, chatTurn.details?.decisionId, chatTurn.answer?.id])).toEqual([
      ["file it", "d1", "answer-1"],
      ["weather?", "d2", "answer-5"],
    ]);
    expect(pendingSimulatedCalls(messages[1])).toEqual([]);
  });

  it("keeps the text of an answer stored before the playground streamed UI messages", () => {
    const messages = uiMessagesOf([
      { id: 1, role: "user", content: "hi", details: turn },
      { id: 2, role: "assistant", content: "Hello.", details: { events: [{ type: "finish", reason: "stop" }] } },
    ]);
    expect(messages[1].parts.at(-1)).toEqual({ type: "text", text: "Hello.", state: "done" });
  });
});

describe("what the playground says when the chat fails", () => {
  const failed = (statusCode: number, responseBody: string) =>
    new APICallError({ message: responseBody || "Failed", url: "/api/catalogs/demo/playground", requestBodyValues: {}, statusCode, responseBody });

  it("names the server when it refused the request, with the API's own message or the status when the body is not the API's", () => {
    expect(describeChatError(failed(400, JSON.stringify({ error: { code: "bad_request", message: "Name a model id, e.g. gpt-5." } })))).toEqual({
      kind: "refused",
      message: "Refused by the server (400): Name a model id, e.g. gpt-5.",
    });
    expect(describeChatError(failed(502, "<html>Bad gateway</html>"))).toEqual({ kind: "server", message: "Server error (502): status 502" });
    expect(describeChatError(failed(500, JSON.stringify({ error: { code: "internal", message: "Boom." } })))).toEqual({
      kind: "server",
      message: "Server error (500): Boom.",
    });
  });

  it("names the network when the request or its stream never arrived, not the model", () => {
    for (const message of ["Failed to fetch", "NetworkError when attempting to fetch resource.", "Load failed", "network error"]) {
      const failure = describeChatError(new TypeError(message));
      expect(failure.kind).toBe("network");
      expect(failure.message).toMatch(/^Network error: the server could not be reached/);
      expect(failure.message).not.toMatch(/model/i);
    }
  });

  it("names the main model for an error the stream carried, also a TypeError that is not the network's", () => {
    expect(describeChatError(new Error("rate limited"))).toEqual({ kind: "model", message: "Main model error: rate limited" });
    expect(describeChatError(new TypeError("Cannot read properties of undefined")).kind).toBe("model");
  });

  it("drops the failed turn, its message and what came after it, when the message is sent again", () => {
    const earlier = [user("first"), answer({ type: "text", text: "one" })];
    expect(withoutLastTurn([...earlier, user("second")])).toEqual(earlier);
    expect(withoutLastTurn([...earlier, user("second"), answer({ type: "text", text: "cut" })])).toEqual(earlier);
    expect(withoutLastTurn([])).toEqual([]);
  });
});

describe("a stopped answer", () => {
  it("is marked stopped when read back, by its turn's last stored answer", () => {
    const stored = (finishReason: string) => [
      { id: 1, role: "user", content: "write", details: turn },
      { id: 2, role: "assistant", content: "Once", details: { parts: [{ type: "text", text: "Once" }], finishReason } },
    ];
    expect(turnsOf(uiMessagesOf(stored("aborted")))[0].stopped).toBe(true);
    expect(turnsOf(uiMessagesOf(stored("stop")))[0].stopped).toBe(false);
    expect(turnsOf([user("hi")])[0].stopped).toBe(false);
  });
});
