import "server-only";
import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from "node:dns";
import { BlockList, isIP } from "node:net";
import { Agent, buildConnector, fetch as undiciFetch } from "undici";

type Env = Record<string, string | undefined>;

/** `TOOLSHED_MCP_ALLOW_PRIVATE=1`: the operator lets MCP servers live on loopback, private and link-local addresses. */
export const ALLOW_PRIVATE_ENV = "TOOLSHED_MCP_ALLOW_PRIVATE";

export const allowsPrivateAddresses = (env: Env = process.env) => env[ALLOW_PRIVATE_ENV] === "1";

/** Address ranges an MCP server reached over HTTP may not be in, by the name an error gives them. */
const RANGES: [name: string, family: "ipv4" | "ipv6", network: string, prefix: number][] = [
  ["unspecified", "ipv4", "0.0.0.0", 8],
  ["unspecified", "ipv6", "::", 128],
  ["loopback", "ipv4", "127.0.0.0", 8],
  ["loopback", "ipv6", "::1", 128],
  ["private", "ipv4", "10.0.0.0", 8],
  ["private", "ipv4", "172.16.0.0", 12],
  ["private", "ipv4", "192.168.0.0", 16],
  ["private (unique local)", "ipv6", "fc00::", 7],
  ["private (site-local)", "ipv6", "fec0::", 10],
  ["private (local-use NAT64)", "ipv6", "64:ff9b:1::", 48],
  ["carrier-grade NAT (shared)", "ipv4", "100.64.0.0", 10],
  ["link-local", "ipv4", "169.254.0.0", 16],
  ["link-local", "ipv6", "fe80::", 10],
  ["multicast", "ipv4", "224.0.0.0", 4],
  ["multicast", "ipv6", "ff00::", 8],
  ["reserved (IETF protocol assignments)", "ipv4", "192.0.0.0", 24],
  ["reserved (documentation)", "ipv4", "192.0.2.0", 24],
  ["reserved (documentation)", "ipv4", "198.51.100.0", 24],
  ["reserved (documentation)", "ipv4", "203.0.113.0", 24],
  ["reserved (documentation)", "ipv6", "2001:db8::", 32],
  ["reserved (6to4 relay anycast)", "ipv4", "192.88.99.0", 24],
  ["reserved (benchmarking)", "ipv4", "198.18.0.0", 15],
  ["reserved (future use and broadcast)", "ipv4", "240.0.0.0", 4],
  ["reserved (IETF protocol assignments, Teredo)", "ipv6", "2001::", 23],
  ["reserved (discard)", "ipv6", "100::", 64],
];

const BLOCKED = RANGES.map(([name, family, network, prefix]) => {
  const list = new BlockList();
  list.addSubnet(network, prefix, family);
  return { name, list };
});

/** IPv6 prefixes that carry an IPv4 address: it is checked as that IPv4 address. */
const EMBEDDING: [network: string, prefix: number, firstByte: number][] = [
  ["::ffff:0:0", 96, 12], // IPv4-mapped
  ["64:ff9b::", 96, 12], // NAT64
  ["2002::", 16, 2], // 6to4
];

function subnet(network: string, prefix: number): BlockList {
  const list = new BlockList();
  list.addSubnet(network, prefix, "ipv6");
  return list;
}

const EMBEDDINGS = EMBEDDING.map(([network, prefix, firstByte]) => ({ list: subnet(network, prefix), firstByte }));
/** Everything outside global unicast (2000::/3) is reserved or special; IPv4-compatible ::/96 among them. */
const GLOBAL_UNICAST = subnet("2000::", 3);

/** The 16 bytes of an IPv6 address (already known to be valid; a zone such as %eth0 is ignored). */
function ipv6Bytes(address: string): number[] {
  const plain = address.split("%")[0];
  const [head, tail = undefined] = plain.includes("::") ? plain.split("::") : [plain];
  const groups = (part: string | undefined) =>
    (part ? part.split(":") : []).flatMap((group) => {
      if (!group.includes(".")) return [parseInt(group, 16)];
      const [a, b, c, d] = group.split(".").map(Number);
      return [(a << 8) | b, (c << 8) | d];
    });
  const start = groups(head);
  const end = groups(tail);
  const all = tail === undefined ? start : [...start, ...new Array(8 - start.length - end.length).fill(0), ...end];
  return all.flatMap((group) => [group >> 8, group & 0xff]);
}

/**
 * Why an address may not be connected to ("loopback", "private", "link-local", …), or undefined
 * for a public address (or no IP address at all). IPv6 forms of an IPv4 address (mapped, NAT64,
 * 6to4) are judged by that IPv4 address.
 */
export function addressClass(address: string): string | undefined {
  const plain = address.replace(/^\[|\]$/g, "").split("%")[0];
  const family = isIP(plain);
  if (family === 0) return undefined;
  const type = family === 4 ? "ipv4" : "ipv6";
  const found = BLOCKED.find(({ list }) => list.check(plain, type));
  if (found) return found.name;
  if (family === 4) return undefined;
  const embedding = EMBEDDINGS.find(({ list }) => list.check(plain, "ipv6"));
  if (embedding)
    return addressClass(
      ipv6Bytes(plain)
        .slice(embedding.firstByte, embedding.firstByte + 4)
        .join("."),
    );
  return GLOBAL_UNICAST.check(plain, "ipv6") ? undefined : "reserved";
}

const isLocalhostName = (hostname: string) => /(^|\.)localhost\.?$/i.test(hostname);

/** An MCP server's address that Toolshed refuses to connect to, with the reason and how to allow it. */
export class BlockedAddressError extends Error {
  readonly code = "ETOOLSHED_BLOCKED_ADDRESS";
  constructor(
    readonly host: string,
    readonly address: string,
    readonly addressClass: string,
  ) {
    const what = host === address ? `${address} is a ${addressClass} address` : `${host} resolves to ${address}, a ${addressClass} address`;
    super(`${what}: MCP servers on loopback, private, link-local or reserved addresses are refused unless the operator sets ${ALLOW_PRIVATE_ENV}=1.`);
    this.name = "BlockedAddressError";
  }
}

/**
 * The refusal for a host when it can be judged without DNS: an IP literal (bracketed or not) or
 * `localhost`. Other names are judged after resolution, when connecting (`guardedLookup`).
 */
export function hostRefusal(host: string, env: Env = process.env): BlockedAddressError | undefined {
  if (allowsPrivateAddresses(env)) return undefined;
  const hostname = host.replace(/^\[|\]$/g, "");
  if (isLocalhostName(hostname)) return new BlockedAddressError(hostname, hostname, "loopback");
  const found = addressClass(hostname);
  return found ? new BlockedAddressError(hostname, hostname, found) : undefined;
}

/** The first BlockedAddressError in an error's chain of causes (fetch wraps it in "fetch failed"). */
export function blockedAddressIn(error: unknown): BlockedAddressError | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    if (current instanceof BlockedAddressError) return current;
  }
  return undefined;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
/** Resolves a name to all its addresses, as `dns.lookup` with `all: true` does. */
export type Resolver = (
  hostname: string,
  options: LookupAllOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/**
 * A `dns.lookup` for sockets that refuses a name when any of its addresses is blocked. It runs
 * for every new connection, so a name that resolved to a public address when checked and to a
 * private one when connecting (DNS rebinding) is still refused.
 */
function guardedLookup(resolve: Resolver = dnsLookup, env: Env = process.env) {
  return (hostname: string, options: { all?: boolean; family?: number | string; hints?: number }, callback: LookupCallback): void => {
    resolve(hostname, { ...options, all: true } as LookupAllOptions, (error, addresses) => {
      if (error) return callback(error, []);
      if (!allowsPrivateAddresses(env)) {
        for (const { address } of addresses) {
          const found = addressClass(address);
          if (found) return callback(new BlockedAddressError(hostname, address, found), []);
        }
      }
      if (options.all) return callback(null, addresses);
      if (addresses.length === 0) return callback(Object.assign(new Error(`No address for ${hostname}`), { code: "ENOTFOUND" }), []);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/** One dispatcher per resolver (in practice one, DNS's) whose every connection's address is checked before it is opened. */
const agents = new Map<Resolver, Agent>();

function guardedAgent(resolve: Resolver): Agent {
  const existing = agents.get(resolve);
  if (existing) return existing;
  const connect = buildConnector({ lookup: guardedLookup(resolve) } as buildConnector.BuildOptions);
  const agent = new Agent({
    connect: (options, callback) => {
      // An IP literal is never looked up, so it is judged here.
      const refusal = hostRefusal(options.hostname);
      if (refusal) return callback(refusal, null);
      return connect(options, callback);
    },
  });
  agents.set(resolve, agent);
  return agent;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;
/** Headers that never follow a redirect to another origin (the configured ones are added to these). */
const CREDENTIAL_HEADERS = ["authorization", "proxy-authorization", "cookie"];

type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

/**
 * A fetch for HTTP MCP servers that only reaches public addresses (unless allowed): the host of
 * every request and every redirect hop is checked (IP literals directly, names after DNS
 * resolution at connect time). Redirects are followed here, at most `MAX_REDIRECTS`, and the
 * configured headers (`secretHeaders`, which hold credentials) are dropped on a hop to another
 * origin. `resolve` is for tests (a name that resolves to a private address). A caller asking for `redirect: "manual"` (the MCP SDK, which follows same-origin
 * redirects itself through this same fetch) gets the redirect response as it is.
 */
export function guardedFetch({ secretHeaders = [], resolve = dnsLookup }: { secretHeaders?: string[]; resolve?: Resolver } = {}): FetchLike {
  const dispatcher = guardedAgent(resolve);
  const dropped = new Set([...CREDENTIAL_HEADERS, ...secretHeaders.map((name) => name.toLowerCase())]);
  return async (input, init = {}) => {
    let url = new URL(String(input));
    let request: RequestInit = { ...init };
    const follow = (init.redirect ?? "follow") === "follow";
    for (let hop = 0; ; hop++) {
      if (url.protocol !== "http:" && url.protocol !== "https:")
        throw new TypeError("fetch failed", { cause: new Error(`Refusing to fetch ${url.protocol} URLs`) });
      const refusal = hostRefusal(url.hostname);
      if (refusal) throw new TypeError("fetch failed", { cause: refusal });
      const response = (await undiciFetch(url, {
        ...(request as object),
        redirect: follow ? "manual" : init.redirect,
        dispatcher,
      } as Parameters<typeof undiciFetch>[1])) as unknown as Response;
      const location = response.headers.get("location");
      if (!follow || !REDIRECT_STATUSES.has(response.status) || !location) return response;
      await response.body?.cancel();
      if (hop >= MAX_REDIRECTS) throw new TypeError("fetch failed", { cause: new Error(`More than ${MAX_REDIRECTS} redirects`) });
      const next = new URL(location, url);
      const headers = new Headers(request.headers);
      if (next.origin !== url.origin) for (const name of dropped) headers.delete(name);
      const method = (request.method ?? "GET").toUpperCase();
      if (response.status === 303 ? method !== "HEAD" : (response.status === 301 || response.status === 302) && method === "POST") {
        request = { ...request, method: "GET", body: undefined };
        headers.delete("content-type");
        headers.delete("content-length");
      }
      request = { ...request, headers };
      url = next;
    }
  };
}
