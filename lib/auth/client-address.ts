/**
 * The address a request came from, for rate limits and sign-in lockouts. `X-Forwarded-For` is
 * written by whoever sends the request, so it counts only when the operator names the proxies
 * that append to it (`TOOLSHED_TRUSTED_PROXIES`) and the request came from one of them; otherwise
 * the address is the socket's peer.
 */
import { BlockList, isIP } from "node:net";

export const TRUSTED_PROXIES_VARIABLE = "TOOLSHED_TRUSTED_PROXIES";

/** Where the server hands the client's address to better-auth (its `advanced.ipAddress` header), written over anything the client sent. */
export const CLIENT_ADDRESS_HEADER = "x-toolshed-client-address";

/** The proxies the operator trusts (IPs and CIDR ranges, comma-separated), or undefined when none are named. */
export function trustedProxiesFrom(value: string | undefined): BlockList | undefined {
  const entries = (value ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0) return undefined;
  const proxies = new BlockList();
  for (const entry of entries) {
    const [address, prefix, ...rest] = entry.split("/");
    const family = isIP(address);
    const bits = prefix === undefined ? undefined : Number(prefix);
    const maxBits = family === 4 ? 32 : 128;
    const valid = family !== 0 && rest.length === 0 && (bits === undefined || (/^\d{1,3}$/.test(prefix) && bits <= maxBits));
    if (!valid) throw new Error(`${TRUSTED_PROXIES_VARIABLE}: "${entry}" is not an IP address or a CIDR range (e.g. 10.0.0.0/8).`);
    const type = family === 4 ? "ipv4" : "ipv6";
    if (bits === undefined) proxies.addAddress(address, type);
    else proxies.addSubnet(address, bits, type);
  }
  return proxies;
}

/** An IP address as one spelling: IPv4-mapped IPv6 (`::ffff:1.2.3.4`) as IPv4, IPv6 in lower case. Undefined when it is no IP. */
export function normalizeAddress(address: string | undefined): string | undefined {
  const trimmed = address?.trim() ?? "";
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(trimmed);
  if (mapped && isIP(mapped[1]) === 4) return mapped[1];
  return isIP(trimmed) ? trimmed.toLowerCase() : undefined;
}

function isTrusted(proxies: BlockList, address: string): boolean {
  return proxies.check(address, isIP(address) === 4 ? "ipv4" : "ipv6");
}

/**
 * The client's address: the socket's peer, unless the peer is a trusted proxy; then
 * `X-Forwarded-For` is walked from the right past trusted proxies to the first address that is
 * not one. Undefined when the peer is unknown (a request that did not come through our server).
 */
export function clientAddress(input: {
  forwardedFor: string | null | undefined;
  peerAddress: string | undefined;
  trustedProxies: BlockList | undefined;
}): string | undefined {
  const peer = normalizeAddress(input.peerAddress);
  if (!peer || !input.trustedProxies || !isTrusted(input.trustedProxies, peer)) return peer;
  const chain = (input.forwardedFor ?? "").split(",").filter((hop) => hop.trim());
  let nearest = peer;
  for (const hop of chain.reverse()) {
    const address = normalizeAddress(hop);
    // Our trusted proxies append only real addresses: anything else was written by the client.
    if (!address) return nearest;
    if (!isTrusted(input.trustedProxies, address)) return address;
    nearest = address;
  }
  return nearest;
}

/** The eight 16-bit groups of an IPv6 address (which `isIP` has accepted), as numbers. */
function ipv6Groups(address: string): number[] {
  const withoutZone = address.split("%")[0];
  const [head, tail] = withoutZone.split("::");
  const parse = (part: string | undefined) =>
    (part ? part.split(":") : []).flatMap((group) => {
      if (!group.includes(".")) return [Number.parseInt(group, 16)];
      const [a, b, c, d] = group.split(".").map(Number);
      return [(a << 8) | b, (c << 8) | d];
    });
  const front = parse(head);
  const back = parse(tail);
  return tail === undefined ? front : [...front, ...new Array(8 - front.length - back.length).fill(0), ...back];
}

/**
 * The part of an address that rate limits and lockouts count by: an IPv4 address whole, an IPv6
 * address by its /64 network (one subscriber usually holds a whole /64, so single addresses cost
 * an attacker nothing).
 */
export function addressKey(address: string): string {
  if (isIP(address) !== 6) return address;
  const network = ipv6Groups(address)
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(":");
  return `${network}::/64`;
}
