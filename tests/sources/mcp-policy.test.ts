import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { LookupAddress } from "node:dns";
import { lookup } from "node:dns/promises";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { McpConnections, type McpServerConfig } from "@/lib/sources/mcp";
import { addressClass, BlockedAddressError, guardedFetch, hostRefusal, type Resolver } from "@/lib/sources/mcp/network-policy";
import { mcpPolicyProblem } from "@/lib/sources/mcp/policy";
import { matchingStdioCommands, parseStdioCommands, stdioPolicyProblem } from "@/lib/sources/mcp/stdio-policy";
import { processesMentioning } from "../support/processes";
import { failure, withEnv } from "./helpers";

const scratch = () => mkdtempSync(path.join(os.tmpdir(), "toolshed-policy-"));

async function listOnce(config: McpServerConfig) {
  const connections = new McpConnections(() => undefined, { connectTimeoutMs: 3_000 });
  try {
    return await connections.list(config.name, config);
  } finally {
    await connections.disconnectAll();
  }
}

describe("the stdio allowlist", () => {
  it("parses ';'-separated command lines of whitespace-separated words, the demo server by default", () => {
    expect(parseStdioCommands(undefined)).toEqual([{ command: "node", args: ["mcp-servers/demo-server.mjs"], env: ["DEMO_MCP_TOKEN"] }]);
    expect(parseStdioCommands("  npx  -y  @acme/mcp ;; uvx acme-mcp;node  ")).toEqual([
      { command: "npx", args: ["-y", "@acme/mcp"], env: [] },
      { command: "uvx", args: ["acme-mcp"], env: [] },
      { command: "node", args: [], env: [] },
    ]);
    expect(parseStdioCommands("")).toEqual([]);
    expect(parseStdioCommands(" ; ")).toEqual([]);
  });

  it("allows the same command whose arguments start with the line's arguments", () => {
    const allowed = parseStdioCommands("node mcp-servers/demo-server.mjs; npx -y @acme/mcp");
    const allows = (config: Parameters<typeof matchingStdioCommands>[0]) => matchingStdioCommands(config, allowed).length > 0;
    expect(allows({ command: "node", args: ["mcp-servers/demo-server.mjs"] })).toBe(true);
    expect(allows({ command: "node", args: ["mcp-servers/demo-server.mjs", "--verbose"] })).toBe(true);
    expect(allows({ command: "npx", args: ["-y", "@acme/mcp", { value: "token", secret: true }] })).toBe(true);
    expect(allows({ command: "npx", args: ["-y", { value: "@acme/mcp", secret: true }] })).toBe(true);
    expect(allows({ command: "node", args: [] })).toBe(false);
    expect(allows({ command: "node", args: ["--eval", "mcp-servers/demo-server.mjs"] })).toBe(false);
    expect(allows({ command: "node", args: ["mcp-servers/demo-server.mjsx"] })).toBe(false);
    expect(allows({ command: "/usr/bin/node", args: ["mcp-servers/demo-server.mjs"] })).toBe(false);
    expect(allows({ command: "sh", args: ["-c", "node mcp-servers/demo-server.mjs"] })).toBe(false);
    expect(matchingStdioCommands({ command: "node", args: ["mcp-servers/demo-server.mjs"] }, [])).toEqual([]);
  });

  it("names the field and the allowed lines when it refuses a command", () => {
    const env = { TOOLSHED_MCP_STDIO_COMMANDS: "node mcp-servers/demo-server.mjs env=DEMO_MCP_TOKEN; uvx acme" };
    expect(stdioPolicyProblem({ command: "sh", args: ["-c", "id"] }, env)).toEqual({
      field: "command",
      message:
        'The command "sh" with these arguments is not one the operator allowed for stdio MCP servers. Allowed command lines (TOOLSHED_MCP_STDIO_COMMANDS, further arguments may follow): "node mcp-servers/demo-server.mjs", "uvx acme".',
    });
    expect(stdioPolicyProblem({ command: "sh", args: [] }, { TOOLSHED_MCP_STDIO_COMMANDS: "" })?.message).toMatch(/: none\.$/);
  });
});

describe("address classes", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.0.9", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["100.64.0.1", "carrier-grade NAT (shared)"],
    ["169.254.169.254", "link-local"],
    ["0.0.0.0", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["240.0.0.1", "reserved (future use and broadcast)"],
    ["255.255.255.255", "reserved (future use and broadcast)"],
    ["192.0.2.10", "reserved (documentation)"],
    ["198.18.0.1", "reserved (benchmarking)"],
    ["::1", "loopback"],
    ["[::1]", "loopback"],
    ["::", "unspecified"],
    ["fc00::1", "private (unique local)"],
    ["fd12:3456::1", "private (unique local)"],
    ["fe80::1%eth0", "link-local"],
    ["ff02::1", "multicast"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:169.254.169.254", "link-local"],
    ["::ffff:10.0.0.1", "private"],
    ["64:ff9b::a9fe:a9fe", "link-local"],
    ["2002:7f00:1::", "loopback"],
    ["2001:db8::1", "reserved (documentation)"],
    ["::127.0.0.1", "reserved"],
    ["1::", "reserved"],
  ])("%s is %s", (address, expected) => {
    expect(addressClass(address)).toBe(expected);
  });

  it.each(["8.8.8.8", "1.1.1.1", "172.32.0.1", "100.128.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::", "example.com"])(
    "%s is not refused",
    (address) => {
      expect(addressClass(address)).toBeUndefined();
    },
  );

  it("refuses IP literals and localhost without DNS, unless TOOLSHED_MCP_ALLOW_PRIVATE=1", () => {
    for (const host of ["127.0.0.1", "[::1]", "169.254.169.254", "localhost", "LOCALHOST.", "api.localhost", "[::ffff:a9fe:a9fe]"]) {
      expect(hostRefusal(host, {}), host).toBeInstanceOf(BlockedAddressError);
      expect(hostRefusal(host, { TOOLSHED_MCP_ALLOW_PRIVATE: "1" }), host).toBeUndefined();
    }
    expect(hostRefusal("mcp.example.com", {})).toBeUndefined();
    expect(hostRefusal("8.8.8.8", {})).toBeUndefined();
    expect(hostRefusal("169.254.169.254", {})?.message).toBe(
      "169.254.169.254 is a link-local address: MCP servers on loopback, private, link-local or reserved addresses are refused unless the operator sets TOOLSHED_MCP_ALLOW_PRIVATE=1.",
    );
  });

  it("checks a server's configuration as a whole: the stdio allowlist or the URL's host", () => {
    const strict = { TOOLSHED_MCP_STDIO_COMMANDS: "node mcp-servers/demo-server.mjs" };
    expect(mcpPolicyProblem({ name: "a", transport: "http", url: "http://127.0.0.1:9/mcp" }, strict)).toMatchObject({ field: "url" });
    expect(mcpPolicyProblem({ name: "a", transport: "http", url: "https://user:pw@[::1]/mcp" }, strict)?.message).toMatch(/^::1 is a loopback address/);
    expect(mcpPolicyProblem({ name: "a", transport: "http", url: "https://mcp.example.com/mcp" }, strict)).toBeUndefined();
    expect(mcpPolicyProblem({ name: "a", transport: "stdio", command: "sh", args: ["-c", "id"] }, strict)).toMatchObject({ field: "command" });
  });
});

/** A resolver that maps the names it knows, as a DNS server under someone else's control could. */
function fakeDns(names: Record<string, string>): Resolver {
  return (hostname, _options, callback) => {
    const address = names[hostname];
    if (address === undefined) return callback(Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: "ENOTFOUND" }), []);
    callback(null, [{ address, family: address.includes(":") ? 6 : 4 } satisfies LookupAddress]);
  };
}

interface Seen {
  url: string;
  method: string;
  headers: IncomingMessage["headers"];
}

describe("guardedFetch", () => {
  const servers: Server[] = [];
  afterAll(() => {
    for (const server of servers) {
      server.closeAllConnections();
      server.close();
    }
  });

  /** A local HTTP server; `respond` decides each answer, every request is recorded in `seen`. */
  async function serve(respond: (request: IncomingMessage, seen: Seen[]) => { status: number; headers?: Record<string, string> }) {
    const seen: Seen[] = [];
    const server = createServer((request, response) => {
      seen.push({ url: request.url ?? "", method: request.method ?? "", headers: request.headers });
      const answer = respond(request, seen);
      response.writeHead(answer.status, answer.headers).end("body");
    });
    servers.push(server);
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    return { port: (server.address() as AddressInfo).port, seen };
  }

  it("refuses a name that resolves to a private address when connecting (DNS rebinding), and connects when allowed", async () => {
    const target = await serve(() => ({ status: 200 }));
    const fetch = guardedFetch({ resolve: fakeDns({ "public.test": "127.0.0.1" }) });
    const refused = await fetch(`http://public.test:${target.port}/mcp`).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TypeError);
    const cause = (refused as Error).cause;
    expect(cause).toBeInstanceOf(BlockedAddressError);
    expect((cause as Error).message).toMatch(/^public\.test resolves to 127\.0\.0\.1, a loopback address/);
    expect(target.seen).toEqual([]);

    const allowed = await withEnv({ TOOLSHED_MCP_ALLOW_PRIVATE: "1" }, () => fetch(`http://public.test:${target.port}/mcp`));
    expect(allowed.status).toBe(200);
    expect(target.seen).toHaveLength(1);
  });

  it("refuses IP literals before any connection", async () => {
    const target = await serve(() => ({ status: 200 }));
    for (const url of [`http://127.0.0.1:${target.port}/`, `http://[::ffff:127.0.0.1]:${target.port}/`, "http://169.254.169.254/latest/meta-data/"]) {
      const error = await guardedFetch()(url).catch((caught: unknown) => caught);
      expect((error as Error).cause, url).toBeInstanceOf(BlockedAddressError);
    }
    expect(target.seen).toEqual([]);
  });

  it("checks every redirect hop: a hop to a private address is refused", async () => {
    const inner = await serve(() => ({ status: 200 }));
    // The first server is reachable only while private addresses are allowed; it turns that off
    // before answering, so its redirect points at an address that is private and now refused.
    const outer = await serve(() => {
      process.env.TOOLSHED_MCP_ALLOW_PRIVATE = "0";
      return { status: 302, headers: { location: `http://127.0.0.1:${inner.port}/internal` } };
    });
    const error = await withEnv({ TOOLSHED_MCP_ALLOW_PRIVATE: "1" }, () =>
      guardedFetch()(`http://127.0.0.1:${outer.port}/mcp`).catch((caught: unknown) => caught),
    );
    expect((error as Error).cause).toBeInstanceOf(BlockedAddressError);
    expect(outer.seen).toHaveLength(1);
    expect(inner.seen).toEqual([]);
  });

  it("follows at most 5 redirects, drops credentials on a hop to another origin, and turns a POST into a GET on 303", async () => {
    await withEnv({ TOOLSHED_MCP_ALLOW_PRIVATE: "1" }, async () => {
      const final = await serve(() => ({ status: 200 }));
      const first = await serve(() => ({ status: 303, headers: { location: `http://127.0.0.1:${final.port}/landed` } }));
      const response = await guardedFetch({ secretHeaders: ["X-Api-Key"] })(`http://127.0.0.1:${first.port}/mcp`, {
        method: "POST",
        body: "{}",
        headers: { "content-type": "application/json", authorization: "Bearer s", "x-api-key": "k", "x-other": "kept" },
      });
      expect(response.status).toBe(200);
      expect(first.seen[0]).toMatchObject({ method: "POST", headers: expect.objectContaining({ authorization: "Bearer s", "x-api-key": "k" }) });
      expect(final.seen[0]).toMatchObject({ url: "/landed", method: "GET" });
      expect(final.seen[0].headers).not.toHaveProperty("authorization");
      expect(final.seen[0].headers).not.toHaveProperty("x-api-key");
      expect(final.seen[0].headers["x-other"]).toBe("kept");

      const loop = await serve((request) => ({ status: 307, headers: { location: `${request.url}x` } }));
      const error = await guardedFetch()(`http://127.0.0.1:${loop.port}/`).catch((caught: unknown) => caught);
      expect(((error as Error).cause as Error).message).toBe("More than 5 redirects");
      expect(loop.seen).toHaveLength(6);

      const manual = await guardedFetch()(`http://127.0.0.1:${first.port}/mcp`, { redirect: "manual" });
      expect(manual.status).toBe(303);
    });
  });
});

describe("the connection pool refuses what the policy refuses", () => {
  it("never starts a stored stdio command that is not allowed: no process, no file", async () => {
    const marker = path.join(scratch(), "started");
    const error = await failure(listOnce({ name: "evil", transport: "stdio", command: "sh", args: ["-c", `touch ${marker}`] }));
    expect(error.failure).toBe("config");
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/^Refused to start the MCP server "evil": The command "sh" with these arguments is not one the operator allowed/);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(existsSync(marker)).toBe(false);
    expect(processesMentioning(marker)).toEqual([]);
  });

  it("never connects to a private address, by IP literal or by name", async () => {
    for (const url of ["http://127.0.0.1:9/mcp", "http://localhost:9/mcp", "http://169.254.169.254/mcp", "http://[::1]:9/mcp"]) {
      const error = await failure(listOnce({ name: "internal", transport: "http", url }));
      expect(error.failure, url).toBe("config");
      expect(error.message, url).toMatch(/^Refused to connect to the MCP server "internal": .* address: MCP servers on loopback, private/);
    }
    // This machine's own name usually resolves to a loopback or private address: refused after
    // DNS resolution, inside the pool's fetch (guardedFetch's tests use a fake DNS for the same).
    const resolved = await lookup(os.hostname(), { all: true }).catch(() => []);
    if (resolved.length > 0 && resolved.every(({ address }) => addressClass(address) !== undefined)) {
      const own = await failure(listOnce({ name: "own", transport: "http", url: `http://${os.hostname()}:65000/mcp` }));
      expect(own.failure).toBe("config");
      expect(own.message).toMatch(new RegExp(`${os.hostname()} resolves to .*, a .* address`));
    }
  });

  it("starts a server with only its configured env plus PATH: nothing else of ours is inherited", async () => {
    const reporter = path.resolve("tests/sources/fixtures/env-reporter.mjs");
    const out = path.join(scratch(), "env.json");
    await withEnv(
      {
        TOOLSHED_MCP_STDIO_COMMANDS: `${process.execPath} ${reporter} env=CONFIGURED`,
        TOOLSHED_CANARY: "canary-of-the-parent",
        OPENAI_API_KEY: "sk-parent-key",
        HOME: "/home/parent",
        USER: "parent",
      },
      () => failure(listOnce({ name: "env", transport: "stdio", command: process.execPath, args: [reporter, out], env: { CONFIGURED: "yes" } })),
    );
    const childEnv = JSON.parse(readFileSync(out, "utf8")) as Record<string, string>;
    expect(Object.keys(childEnv).sort()).toEqual(["CONFIGURED", "PATH"]);
    expect(childEnv).toEqual({ CONFIGURED: "yes", PATH: process.env.PATH });
  });
});
