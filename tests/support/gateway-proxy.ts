import { createServer, type IncomingHttpHeaders, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { gatewayUri, upstreamOf } from "@/lib/gateway/federation";

/**
 * A loopback proxy in front of one catalog's MCP gateway, for an MCP client that can be given only
 * a URL (the official conformance suite): it forwards every request to the gateway's URL, adding
 * the bearer token the gateway requires, and streams the answers back as they come (event
 * streams too: a progress notification or an elicitation request reaches the client while the
 * call runs). One thing more: the suite names its fixture server's tools, prompts and resources as
 * that server does, and the gateway federates them under its own names (lib/gateway/federation.ts):
 * tools and prompts `<server>__<name>` (lib/sources/mcp/names.ts: verbatim for the suite's names),
 * resources `toolshed://<server>/<encoded URI>`. So the proxy gives a tools/call or prompts/get
 * the gateway's name and a resources/read, /subscribe or /unsubscribe the gateway's URI; it takes
 * the prefix off the names tools/list answers, and gives the resources in tool results, prompt
 * messages and read contents their server's URIs back. Resource and prompt lists pass as the
 * gateway answers them (the suite checks only their shape). It changes nothing else.
 */
export interface GatewayProxy {
  url: string;
  close(): Promise<void>;
}

/** The gateway's own tools, which no server's name prefixes. */
const GATEWAY_TOOLS = new Set(["ToolSearch", "ToolCall"]);
/** Headers the proxy does not forward: its own connection's, and the length of a body it may rewrite. */
const HOP_HEADERS = new Set(["host", "connection", "keep-alive", "transfer-encoding", "content-length", "authorization"]);

type ContentBlock = { type?: unknown; uri?: unknown; resource?: { uri?: unknown } };
type JsonRpcMessage = {
  method?: string;
  params?: { name?: unknown; uri?: unknown };
  result?: { tools?: { name?: unknown }[]; content?: ContentBlock[]; messages?: { content?: ContentBlock }[]; contents?: { uri?: unknown }[] };
};

/** The requests that name a resource by its URI. */
const RESOURCE_METHODS = new Set(["resources/read", "resources/subscribe", "resources/unsubscribe"]);

/** An upstream's URI for a gateway's (lib/gateway/federation.ts); any other value as it is. */
const upstreamUri = (uri: unknown) => (typeof uri === "string" ? (upstreamOf(uri)?.uri ?? uri) : uri);

/** Gives the resource of a content block (of a tool result or a prompt message) its upstream URI. */
function upstreamBlock(block: ContentBlock): void {
  if (block.type === "resource_link") block.uri = upstreamUri(block.uri);
  if (block.resource) block.resource.uri = upstreamUri(block.resource.uri);
}

function mapMessages(json: unknown, map: (message: JsonRpcMessage) => void): unknown {
  for (const message of Array.isArray(json) ? json : [json]) if (message && typeof message === "object") map(message as JsonRpcMessage);
  return json;
}

/** Rewrites a JSON text's messages; text that is not JSON passes unchanged. */
function rewriteJson(text: string, map: (message: JsonRpcMessage) => void): string {
  try {
    return JSON.stringify(mapMessages(JSON.parse(text), map));
  } catch {
    return text;
  }
}

function forwardedHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !HOP_HEADERS.has(name)) kept[name] = value;
  return kept;
}

/** `server`: the name of the catalog's MCP server whose tools, prompts and resources the client names as that server does. */
export async function startGatewayProxy(options: { target: string; token: string; server: string }): Promise<GatewayProxy> {
  const { target, token, server: upstream } = options;
  const prefix = `${upstream}__`;
  const toCatalog = (message: JsonRpcMessage) => {
    const { name, uri } = message.params ?? {};
    if (message.method === "tools/call" && typeof name === "string" && !GATEWAY_TOOLS.has(name)) message.params!.name = `${prefix}${name}`;
    if (message.method === "prompts/get" && typeof name === "string") message.params!.name = `${prefix}${name}`;
    if (message.method && RESOURCE_METHODS.has(message.method) && typeof uri === "string") message.params!.uri = gatewayUri(upstream, uri);
  };
  const fromCatalog = (message: JsonRpcMessage) => {
    for (const tool of message.result?.tools ?? []) {
      if (typeof tool.name === "string" && tool.name.startsWith(prefix)) tool.name = tool.name.slice(prefix.length);
    }
    // Resources in answers have gateway URIs (readable through it): the client gets back the URIs it names (the suite checks only that one is there).
    for (const block of message.result?.content ?? []) upstreamBlock(block);
    for (const promptMessage of message.result?.messages ?? []) if (promptMessage.content) upstreamBlock(promptMessage.content);
    for (const content of message.result?.contents ?? []) content.uri = upstreamUri(content.uri);
  };
  const server = createServer(async (incoming, outgoing) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const body = chunks.length > 0 ? rewriteJson(Buffer.concat(chunks).toString("utf8"), toCatalog) : undefined;
    const upstream = httpRequest(target, { method: incoming.method, headers: { ...forwardedHeaders(incoming.headers), authorization: `Bearer ${token}` } });
    // A client that leaves (the suite cancels event streams) ends the gateway's request too.
    outgoing.on("close", () => upstream.destroy());
    upstream.on("error", (error) => {
      if (!outgoing.headersSent) outgoing.writeHead(502, { "content-type": "text/plain" });
      outgoing.end(error.message);
    });
    upstream.on("response", (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, forwardedHeaders(answer.headers));
      outgoing.flushHeaders();
      const eventStream = String(answer.headers["content-type"] ?? "").includes("text/event-stream");
      let pending = "";
      answer.setEncoding("utf8");
      answer.on("data", (text: string) => {
        if (!eventStream) {
          pending += text;
          return;
        }
        // Event by event as they come: each line whole, a data line's JSON-RPC message rewritten.
        const lines = (pending + text).split("\n");
        pending = lines.pop() ?? "";
        outgoing.write(lines.map((line) => `${line.startsWith("data: ") ? `data: ${rewriteJson(line.slice(6), fromCatalog)}` : line}\n`).join(""));
      });
      answer.on("end", () => outgoing.end(eventStream ? pending : pending && rewriteJson(pending, fromCatalog)));
    });
    upstream.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
