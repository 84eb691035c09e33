import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

/**
 * A test double: an MCP server over Streamable HTTP without sessions, on a free local port, with a
 * fresh `Server` per request from `serverFor` (which may answer the request itself and return none).
 */
export function serveStatelessMcp(
  serverFor: (request: IncomingMessage, response: ServerResponse) => Promise<Server | undefined> | Server | undefined,
): Promise<{ url: string; http: HttpServer }> {
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const server = await serverFor(request, response);
    if (!server) return;
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    response.on("close", () => void server.close());
    await server.connect(transport);
    await transport.handleRequest(request, response);
  };
  const http = createServer((request, response) => void handle(request, response));
  return new Promise((done) => http.listen(0, "127.0.0.1", () => done({ url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`, http })));
}
