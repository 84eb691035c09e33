import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { PEER_ADDRESS_HEADER, peerAddressHeaderValue } from "@/lib/auth/peer-address";
import { routeApiRequest } from "./api-routes";

/**
 * Toolshed over real HTTP, in the test's process: a Node server that hands each request to the
 * route handler its path names (as Next would), on the database the test set up.
 */
export interface ToolshedHttpServer {
  /** The base URL, e.g. http://127.0.0.1:41234. */
  url: string;
  /** Every request's method and path, in arrival order. */
  requests: string[];
  close(): Promise<void>;
  /** Stops listening and resolves once every response has ended, as Next's server stops on SIGTERM. */
  closeGracefully(): Promise<void>;
}

async function readBody(incoming: IncomingMessage): Promise<Uint8Array<ArrayBuffer> | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  return chunks.length ? Uint8Array.from(Buffer.concat(chunks)) : undefined;
}

export async function startToolshedHttpServer(): Promise<ToolshedHttpServer> {
  const requests: string[] = [];
  const server = createServer(async (incoming, outgoing) => {
    try {
      const url = new URL(incoming.url ?? "/", "http://127.0.0.1");
      requests.push(`${incoming.method} ${url.pathname}`);
      const headers = new Headers();
      for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === "string") headers.set(name, value);
      // As Toolshed's own server does (lib/auth/peer-address), whatever the client sent.
      headers.set(PEER_ADDRESS_HEADER, peerAddressHeaderValue(incoming.socket.remoteAddress));
      const body = await readBody(incoming);
      const response = await routeApiRequest(new Request(url, { method: incoming.method, headers, body }));
      outgoing.writeHead(response.status, Object.fromEntries(response.headers));
      outgoing.flushHeaders();
      // Streamed as it comes, so that the MCP gateway's event streams stay open; a client that leaves ends the stream.
      const reader = response.body?.getReader();
      outgoing.on("close", () => void reader?.cancel().catch(() => undefined));
      for (let part = await reader?.read().catch(() => undefined); part && !part.done; part = await reader?.read().catch(() => undefined)) {
        outgoing.write(part.value);
      }
      outgoing.end();
    } catch (error) {
      outgoing.writeHead(500, { "content-type": "text/plain" });
      outgoing.end(error instanceof Error ? error.message : String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
    closeGracefully: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
