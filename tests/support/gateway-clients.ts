import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { ClientCapabilities } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll } from "vitest";
import { closeGatewaySessions } from "@/app/_services/mcp-gateway";
import { startToolshedHttpServer, type ToolshedHttpServer } from "./toolshed-http-server";

/**
 * Toolshed over real HTTP for every test of a file, and the SDK's MCP clients on a catalog's
 * gateway, each closed (with the gateway's sessions) after its test. Returns the connect function:
 * `connect(token, "model=gpt-5&agent=build")` on the catalog `team` unless another is named; a
 * client may declare capabilities, and `prepare` installs its handlers before it connects.
 */
export function useGatewayClients(clientName: string) {
  let http: ToolshedHttpServer;
  const clients: Client[] = [];
  beforeAll(async () => {
    http = await startToolshedHttpServer();
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close().catch(() => undefined);
    closeGatewaySessions();
  });
  afterAll(async () => {
    closeGatewaySessions();
    await http.close();
  });
  return async (
    token: string,
    query: string,
    catalog = "team",
    /** `headers`: sent besides the token (none when it is ""), e.g. a browser session's cookie and origin. */
    options: { capabilities?: ClientCapabilities; prepare?: (client: Client) => void; headers?: Record<string, string> } = {},
  ): Promise<Client> => {
    const client = new Client({ name: clientName, version: "1.0.0" }, { capabilities: options.capabilities ?? {} });
    options.prepare?.(client);
    const transport = new StreamableHTTPClientTransport(new URL(`${http.url}/api/catalogs/${catalog}/mcp?${query}`), {
      requestInit: { headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...options.headers } },
    });
    await client.connect(transport);
    clients.push(client);
    return client;
  };
}
