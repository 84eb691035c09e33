import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A test double of an OpenAI-compatible server: Chat Completions (plain and streamed as SSE),
 * embeddings and the model list, answering from a script instead of a model, and recording what
 * it was sent.
 */

export type ScriptedReply =
  | { text: string }
  | { toolCalls: { name: string; arguments: unknown }[] }
  /** Text content holding this value as JSON, as a model answers a structured-output request. */
  | { json: unknown }
  /**
   * Never finishes; the connection is dropped when the client or the server closes it. A streamed
   * request first gets `textFirst` as text deltas (a model stuck mid-answer), `everyMs` apart when
   * given (a slow model, still writing).
   */
  | { hang: true; textFirst?: string; everyMs?: number }
  | { status: number; body?: unknown };

interface RecordedRequest {
  method: string;
  path: string;
  /** The parsed JSON body (the Chat Completions request), or undefined for a GET. */
  body: ChatCompletionRequest | undefined;
  authorization: string | undefined;
}

/** The parts of a Chat Completions request the server reads; the rest is recorded as sent. */
interface ChatCompletionRequest {
  model?: string;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  messages?: { role: string; content?: unknown }[];
  tools?: { type: string; function: { name: string; description?: string; parameters?: unknown } }[];
  response_format?: { type: string; json_schema?: unknown };
  [key: string]: unknown;
}

/** Replies matched by rule (first match wins), then taken from a queue, then `otherwise`. */
interface ScriptDefinition {
  rules?: { lastMessageContains?: string; requestContains?: string; reply: ScriptedReply }[];
  replies?: ScriptedReply[];
  otherwise?: ScriptedReply;
}

/** A queue of replies, a definition, or a function of the request (undefined = script exhausted). */
export type Script = ScriptedReply[] | ScriptDefinition | ((request: RecordedRequest) => ScriptedReply | undefined);

/** An embeddings request as the server reads it: the model and its inputs. */
export interface EmbeddingRequest {
  model?: string;
  input: string[];
}

/** The vectors of the inputs, in order, or a failure or a hang as for chat replies. */
export type EmbeddingScript = (request: EmbeddingRequest) => number[][] | { status: number; body?: unknown } | { hang: true };

const BAG_OF_WORDS_DIMENSIONS = 64;

/**
 * Deterministic embeddings: a bag of words hashed into a few dimensions, so texts that share
 * words are near, as a real model's are for texts that share meaning.
 */
export function bagOfWordsVector(text: string, dimensions = BAG_OF_WORDS_DIMENSIONS): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    let hash = 0x811c9dc5;
    for (let i = 0; i < word.length; i++) hash = Math.imul(hash ^ word.charCodeAt(i), 0x01000193);
    vector[(hash >>> 0) % dimensions] += 1;
  }
  return vector;
}

const bagOfWords: EmbeddingScript = ({ input }) => input.map((text) => bagOfWordsVector(text));

export interface ScriptedOpenAIServer {
  /** Base URL ending in /v1, as providers take it. */
  url: string;
  /** Every request, in arrival order. */
  requests: RecordedRequest[];
  /** The bodies of the chat completion requests only, in arrival order. */
  chatRequests: ChatCompletionRequest[];
  /** The embeddings requests only, in arrival order. */
  embeddingRequests: EmbeddingRequest[];
  /** The requests whose client closed the connection before the reply ended (an aborted call). */
  abandoned: RecordedRequest[];
  close(): Promise<void>;
}

export const SCRIPTED_MODEL_ID = "scripted-model";

function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  return JSON.stringify(content ?? "");
}

function matches(rule: NonNullable<ScriptDefinition["rules"]>[number], request: ChatCompletionRequest): boolean {
  const messages = request.messages ?? [];
  const last = messages.at(-1);
  if (rule.lastMessageContains !== undefined && !(last && contentText(last.content).includes(rule.lastMessageContains))) {
    return false;
  }
  if (rule.requestContains !== undefined && !JSON.stringify(request).includes(rule.requestContains)) return false;
  return true;
}

function scriptFunction(script: Script): (request: RecordedRequest) => ScriptedReply | undefined {
  if (typeof script === "function") return script;
  const definition: ScriptDefinition = Array.isArray(script) ? { replies: script } : script;
  const queue = [...(definition.replies ?? [])];
  return (request) => {
    const rule = definition.rules?.find((candidate) => matches(candidate, request.body ?? {}));
    return rule?.reply ?? queue.shift() ?? definition.otherwise;
  };
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}

function errorBody(message: string) {
  return { error: { message, type: "server_error", code: null } };
}

/** Text split into a few pieces, so a streamed reply takes several deltas. */
function pieces(text: string): string[] {
  const parts = text.match(/\S+\s*|\s+/g) ?? [];
  return parts.length ? parts : [text];
}

function argumentsText(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

function approximateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

interface Completion {
  content: string | null;
  toolCalls: { id: string; name: string; arguments: string }[];
  finishReason: "stop" | "tool_calls";
}

function completionOf(reply: Exclude<ScriptedReply, { hang: true } | { status: number }>, callNumber: number): Completion {
  if ("toolCalls" in reply) {
    return {
      content: null,
      toolCalls: reply.toolCalls.map((call, i) => ({
        id: `call_scripted_${callNumber}_${i}`,
        name: call.name,
        arguments: argumentsText(call.arguments),
      })),
      finishReason: "tool_calls",
    };
  }
  const content = "json" in reply ? JSON.stringify(reply.json) : reply.text;
  return { content, toolCalls: [], finishReason: "stop" };
}

/** Starts an SSE reply with the assistant's role; returns the function that sends each delta. */
function startStream(response: ServerResponse, request: ChatCompletionRequest, id: string, created = Math.floor(Date.now() / 1000)) {
  const model = request.model ?? SCRIPTED_MODEL_ID;
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  const send = (delta: object, finishReason: string | null = null) =>
    response.write(
      `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`,
    );
  send({ role: "assistant", content: "" });
  return send;
}

function sendCompletion(response: ServerResponse, request: ChatCompletionRequest, completion: Completion, id: string) {
  const created = Math.floor(Date.now() / 1000);
  const model = request.model ?? SCRIPTED_MODEL_ID;
  const promptTokens = approximateTokens(JSON.stringify(request.messages ?? []));
  const completionText = completion.content ?? completion.toolCalls.map((call) => call.name + call.arguments).join("");
  const usage = {
    prompt_tokens: promptTokens,
    completion_tokens: approximateTokens(completionText),
    total_tokens: promptTokens + approximateTokens(completionText),
  };

  if (!request.stream) {
    sendJson(response, 200, {
      id,
      object: "chat.completion",
      created,
      model,
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: completion.content,
            ...(completion.toolCalls.length
              ? {
                  tool_calls: completion.toolCalls.map((call) => ({
                    id: call.id,
                    type: "function",
                    function: { name: call.name, arguments: call.arguments },
                  })),
                }
              : {}),
          },
          finish_reason: completion.finishReason,
        },
      ],
      usage,
    });
    return;
  }

  const send = startStream(response, request, id, created);
  if (completion.content !== null) for (const piece of pieces(completion.content)) send({ content: piece });
  completion.toolCalls.forEach((call, index) => {
    send({ tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }] });
    // Arguments arrive in two halves, as real servers split them.
    const half = Math.ceil(call.arguments.length / 2);
    for (const part of [call.arguments.slice(0, half), call.arguments.slice(half)]) {
      if (part) send({ tool_calls: [{ index, function: { arguments: part } }] });
    }
  });
  send({}, completion.finishReason);
  if (request.stream_options?.include_usage) {
    response.write(`data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices: [], usage })}\n\n`);
  }
  response.end("data: [DONE]\n\n");
}

/** Sends each piece, `everyMs` apart when above 0; stops when the client has gone. */
async function sendPieces(response: ServerResponse, all: string[], everyMs: number, send: (piece: string) => void) {
  for (const piece of all) {
    if (response.destroyed) return;
    send(piece);
    if (everyMs > 0) await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

export async function startScriptedOpenAIServer(
  script: Script,
  options: { port?: number; models?: string[]; embeddings?: EmbeddingScript } = {},
): Promise<ScriptedOpenAIServer> {
  const nextReply = scriptFunction(script);
  const embed = options.embeddings ?? bagOfWords;
  const requests: RecordedRequest[] = [];
  const chatRequests: ChatCompletionRequest[] = [];
  const embeddingRequests: EmbeddingRequest[] = [];
  const abandoned: RecordedRequest[] = [];
  const models = options.models ?? [SCRIPTED_MODEL_ID];
  let completions = 0;

  const server = createServer(async (incoming, response) => {
    try {
      const path = new URL(incoming.url ?? "/", "http://localhost").pathname.replace(/\/+$/, "");
      const text = await readBody(incoming);
      let body: ChatCompletionRequest | undefined;
      if (text) {
        try {
          body = JSON.parse(text) as ChatCompletionRequest;
        } catch {
          sendJson(response, 400, errorBody("The request body is not JSON."));
          return;
        }
      }
      const recorded: RecordedRequest = {
        method: incoming.method ?? "GET",
        path,
        body,
        authorization: incoming.headers.authorization,
      };
      requests.push(recorded);
      response.on("close", () => {
        if (!response.writableFinished) abandoned.push(recorded);
      });

      if (recorded.method === "GET" && (path === "/v1/models" || path === "/models")) {
        sendJson(response, 200, {
          object: "list",
          data: models.map((id) => ({ id, object: "model", created: 0, owned_by: "toolshed-scripted" })),
        });
        return;
      }
      if (recorded.method === "POST" && (path === "/v1/embeddings" || path === "/embeddings")) {
        const input = body?.input;
        const embeddingRequest = { model: body?.model, input: typeof input === "string" ? [input] : Array.isArray(input) ? input.map(String) : [] };
        embeddingRequests.push(embeddingRequest);
        const reply = embed(embeddingRequest);
        if ("hang" in reply) return;
        if ("status" in reply) return sendJson(response, reply.status, reply.body ?? errorBody(`Scripted failure (status ${reply.status}).`));
        sendJson(response, 200, {
          object: "list",
          data: reply.map((embedding, index) => ({ object: "embedding", index, embedding })),
          model: embeddingRequest.model ?? SCRIPTED_MODEL_ID,
          usage: { prompt_tokens: approximateTokens(embeddingRequest.input.join(" ")), total_tokens: approximateTokens(embeddingRequest.input.join(" ")) },
        });
        return;
      }
      if (recorded.method !== "POST" || (path !== "/v1/chat/completions" && path !== "/chat/completions")) {
        sendJson(response, 404, errorBody(`No route for ${recorded.method} ${path}.`));
        return;
      }
      if (!body || !Array.isArray(body.messages)) {
        sendJson(response, 400, errorBody("A chat completion request needs messages."));
        return;
      }

      chatRequests.push(body);
      const reply = nextReply(recorded);
      completions++;
      if (reply === undefined) {
        sendJson(response, 500, errorBody(`The script has no reply for request ${completions}.`));
      } else if ("hang" in reply) {
        // Leave the response open: the client's timeout or close() ends it.
        if (body.stream && reply.textFirst !== undefined) {
          const send = startStream(response, body, `chatcmpl-scripted-${completions}`);
          await sendPieces(response, pieces(reply.textFirst), reply.everyMs ?? 0, (piece) => send({ content: piece }));
        }
      } else if ("status" in reply) {
        const payload = reply.body ?? errorBody(`Scripted failure (status ${reply.status}).`);
        if (typeof payload === "string") {
          response.writeHead(reply.status, { "content-type": "text/plain" });
          response.end(payload);
        } else {
          sendJson(response, reply.status, payload);
        }
      } else {
        sendCompletion(response, body, completionOf(reply, completions), `chatcmpl-scripted-${completions}`);
      }
    } catch (error) {
      if (!response.headersSent) sendJson(response, 500, errorBody(error instanceof Error ? error.message : String(error)));
      else response.end();
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    chatRequests,
    embeddingRequests,
    abandoned,
    close() {
      return new Promise<void>((resolve, reject) => {
        if (!server.listening) return resolve();
        server.close((error) => (error ? reject(error) : resolve()));
        // Hung replies keep their connections open; close() would wait on them forever.
        server.closeAllConnections();
      });
    },
  };
}
