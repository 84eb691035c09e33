/**
 * The socket's peer address, carried to route handlers and server actions in a header of ours.
 * Next.js hands them a Request without the socket, and fills `X-Forwarded-For` with the peer only
 * when the client sent none, so the server writes the peer into `x-toolshed-peer-address` as each
 * request arrives, over anything the client sent. The value starts with a secret of this process:
 * a request that reached Next before the header was installed (during start-up) and brought its
 * own header is not believed.
 */
import "server-only";
import { randomBytes, timingSafeEqual } from "node:crypto";
import http from "node:http";

export const PEER_ADDRESS_HEADER = "x-toolshed-peer-address";

const shared = globalThis as unknown as { toolshedPeerProof?: string; toolshedPeerHeaderInstalled?: boolean };

function proof(): string {
  shared.toolshedPeerProof ??= randomBytes(18).toString("base64url");
  return shared.toolshedPeerProof;
}

/** The header's value for a request whose socket's peer is `address` (as our HTTP servers write it). */
export function peerAddressHeaderValue(address: string | undefined): string {
  return `${proof()} ${address ?? ""}`;
}

/** The peer address our server wrote into `headers`, or undefined (none, or not written by this process). */
export function peerAddressOf(headers: Headers): string | undefined {
  const [given, address] = (headers.get(PEER_ADDRESS_HEADER) ?? "").split(" ");
  const expected = Buffer.from(proof());
  const actual = Buffer.from(given);
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return undefined;
  return address || undefined;
}

/**
 * Makes every HTTP server of this process write the header on each request before its listeners
 * see it (Next's server is created before the app's code runs, so its prototype is patched).
 */
export function installPeerAddressHeader(): void {
  if (shared.toolshedPeerHeaderInstalled) return;
  shared.toolshedPeerHeaderInstalled = true;
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function emitWithPeerAddress(this: http.Server, event: string | symbol, ...args: unknown[]): boolean {
    if (event === "request") {
      const request = args[0] as http.IncomingMessage;
      request.headers[PEER_ADDRESS_HEADER] = peerAddressHeaderValue(request.socket.remoteAddress);
    }
    return Reflect.apply(emit, this, [event, ...args]);
  };
}
