import type { IncomingMessage, Server as HttpServer, ServerResponse } from "node:http";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { serveStatelessMcp } from "./stateless-mcp-server";

/**
 * A test double: an HTTP MCP server with one tool, `whoami`, that refuses requests without an
 * Authorization header (401), echoes one holding "refused" in a 403 as careless servers do in their
 * error pages, and records the header of each tool call in `seen`.
 */
export async function serveKeyedMcp(): Promise<{ url: string; http: HttpServer; seen: string[]; close(): Promise<void> }> {
  const seen: string[] = [];
  const serverFor = (request: IncomingMessage, response: ServerResponse): Server | undefined => {
    const authorization = request.headers.authorization;
    if (!authorization || authorization.includes("refused")) {
      response.writeHead(authorization ? 403 : 401, { "content-type": "text/plain" }).end(`Forbidden: ${authorization ?? ""}`);
      return undefined;
    }
    const server = new Server({ name: "keyed", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [{ name: "whoami", description: "Says which account called.", inputSchema: { type: "object" } }],
    }));
    server.setRequestHandler(CallToolRequestSchema, () => {
      seen.push(authorization);
      return { content: [{ type: "text", text: "called" }] };
    });
    return server;
  };
  const { url, http } = await serveStatelessMcp(serverFor);
  const close = () => {
    http.closeAllConnections();
    return new Promise<void>((closed) => http.close(() => closed()));
  };
  return { url, http, seen, close };
}
