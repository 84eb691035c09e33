/**
 * What an agent waits for through the MCP gateway (…/api/catalogs/{catalog}/mcp, Streamable HTTP)
 * against the production build on a fresh SQLite database per catalog size: the synthetic
 * catalog plus the demo MCP server (stdio), reached with the official SDK client as agents reach
 * it. p50 / p95 / p99 of opening a session (initialize and its notification), `tools/list`, a
 * `tools/call` of a demo-server tool proxied to its server, and a ToolSearch call, at concurrency 1
 * and 8 (one client per worker, each a session of one of 8 model/agent combinations, renewed
 * every SESSION_REQUESTS requests as agents' sessions end).
 *
 * Baselines beside them: the catalog's tool list and tool search over the plain HTTP API, and the
 * demo server's own answer to the same call, measured with the SDK client over stdio without
 * Toolshed; the gateway's overhead is the difference. Traffic goes to 127.0.0.1 only.
 */
import os from "node:os";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import {
  benchArguments,
  CATALOG,
  COMBINATIONS,
  type Deployment,
  ensureBuild,
  expectOk,
  importCatalog,
  importDocument,
  load,
  ms,
  type Measured,
  measure,
  type Percentiles,
  percentiles,
  percentilesCell,
  startDeployment,
} from "./deployment";
import { syntheticConversations } from "./synthetic";
import { markdownTable } from "./table";

const USAGE = `Usage: npm run bench:gateway [-- --sizes 10000 --requests 200]

  --sizes      catalog sizes to measure, each on a fresh database (default 10000)
  --requests   requests per operation and concurrency (default 200)
  BENCH_PORT   the server's port (default 3490)`;

/** The demo MCP server as Toolshed runs it (and as the stdio baseline runs it): this Node, so no PATH lookup differs. */
const DEMO_SERVER = { command: process.execPath, args: ["mcp-servers/demo-server.mjs"] };
const DEMO_SOURCE = "notes";
/** The proxied call: a demo-server tool every combination's agent may use without asking. */
const DEMO_CALL = { tool: "notes_get", arguments: { id: "note-1" } };
const PROXIED_CALL = { name: `${DEMO_SOURCE}__${DEMO_CALL.tool}`, arguments: DEMO_CALL.arguments };
/** How many requests a client sends in one session before opening another: ToolSearch grows a session's list. */
const SESSION_REQUESTS = 25;

type Combination = (typeof COMBINATIONS)[number];

// ---------------------------------------------------------------------------------------------
// Clients

/** One gateway session of the SDK client, as an agent opens it, and the time its opening took. */
interface Session {
  client: Client;
  openMs: number;
  close(): Promise<void>;
}

async function openSession(deployment: Deployment, token: string, combination: Combination): Promise<Session> {
  const client = new Client({ name: "toolshed-bench", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${deployment.next()}/api/catalogs/${CATALOG}/mcp?${new URLSearchParams(combination)}`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  const started = performance.now();
  // initialize, then notifications/initialized: what a client waits for before its first request.
  await client.connect(transport);
  const openMs = performance.now() - started;
  return {
    client,
    openMs,
    async close() {
      // Ended (DELETE) rather than left to expire, as a well-behaved client does.
      await transport.terminateSession();
      await client.close();
    },
  };
}

function expectResult(result: unknown, what: string): void {
  const answer = result as CallToolResult;
  if (answer.isError) throw new Error(`${what} answered with an error: ${JSON.stringify(answer.content).slice(0, 500)}`);
}

/** A timed operation on a connected client; the index picks its input. */
type Operation = (client: Client, index: number) => Promise<unknown>;

/** Sessions opened by throughSessions so far: the next serves the next combination. */
let sessionsOpened = 0;

/**
 * `total` operations through `concurrency` clients, one per worker, each in a session of its own
 * (combinations rotating) renewed every SESSION_REQUESTS operations, untimed; the first of each
 * session is timed like the rest.
 */
async function throughSessions(deployment: Deployment, token: string, total: number, concurrency: number, operation: Operation) {
  const sessions: { session: Session; used: number }[] = [];
  try {
    return await load(total, concurrency, async (index, worker) => {
      if (!sessions[worker] || sessions[worker].used === SESSION_REQUESTS) {
        await sessions[worker]?.session.close();
        sessions[worker] = { session: await openSession(deployment, token, COMBINATIONS[sessionsOpened++ % COMBINATIONS.length]), used: 0 };
      }
      sessions[worker].used++;
      const started = performance.now();
      await operation(sessions[worker].session.client, index);
      return performance.now() - started;
    });
  } finally {
    await Promise.all(sessions.map(({ session }) => session.close()));
  }
}

/** The demo server on its own, over stdio with the SDK client: one connection, as Toolshed keeps one per server and instance. */
async function directDemoServer(): Promise<{ client: Client; close(): Promise<void> }> {
  const client = new Client({ name: "toolshed-bench", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ ...DEMO_SERVER, stderr: "ignore" }));
  return { client, close: () => client.close() };
}

// ---------------------------------------------------------------------------------------------
// One catalog size

interface Row extends Measured {
  what: string;
  /** Through the gateway (the headline), or a baseline without it. */
  path: "gateway" | "HTTP API" | "stdio, no Toolshed";
}

/** Measures an operation in gateway sessions: its first runs each in a session of their own, its load through throughSessions. */
function measureInSessions(deployment: Deployment, token: string, requests: number, operation: Operation): Promise<Measured> {
  return measure(
    requests,
    async (index) => (await throughSessions(deployment, token, 1, 1, (client) => operation(client, index))).samples[0],
    (concurrency) => throughSessions(deployment, token, requests, concurrency, operation),
  );
}

/** One size's rows, how many tools each list answers (the gateway's tools/list, the HTTP API's tool-list), and tools/list after edits. */
interface SizeFigures {
  size: number;
  rows: Row[];
  listed: number;
  whole: number;
  afterEdit: Percentiles;
}

/**
 * The gateway's tools/list as the first request after a one-tool description edit (issue 29): one
 * open session per model/agent combination, and per round an edit through the API, then tools/list
 * in the next combination's session, so each edit meets another combination.
 */
async function toolsListAfterEdits(deployment: Deployment, token: string, names: readonly string[], rounds: number): Promise<Percentiles> {
  const sessions: Session[] = [];
  try {
    for (const combination of COMBINATIONS) sessions.push(await openSession(deployment, token, combination));
    const samples: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const name = names[(round * 7919) % names.length];
      await expectOk(deployment, "PATCH", `/api/catalogs/${CATALOG}/tools/${encodeURIComponent(name)}`, {
        description: `Edited for the gateway bench, round ${round}.`,
      });
      const started = performance.now();
      await sessions[round % sessions.length].client.listTools();
      samples.push(performance.now() - started);
    }
    return percentiles(samples);
  } finally {
    await Promise.all(sessions.map((session) => session.close()));
  }
}

/** Imports the synthetic catalog and keeps only its names: a client heap holding the document slows the client's own collector, which the clock would count. */
async function importedNames(deployment: Deployment, size: number): Promise<string[]> {
  const document = importDocument(size);
  await importCatalog(deployment, document);
  return document.tools.map((tool) => tool.name);
}

async function measureSize(size: number, requests: number): Promise<SizeFigures> {
  // The instance token adds the stdio server (instance admins only); agents' traffic carries a read token.
  const deployment = await startDeployment("sqlite", {
    scopes: ["instance", "read"],
    env: { TOOLSHED_MCP_STDIO_COMMANDS: [DEMO_SERVER.command, ...DEMO_SERVER.args].join(" ") },
  });
  const direct = await directDemoServer();
  try {
    await expectOk(deployment, "POST", "/api/catalogs", { name: "Bench", id: CATALOG });
    const names = await importedNames(deployment, size);
    await expectOk(deployment, "POST", `/api/catalogs/${CATALOG}/mcp-servers`, { name: DEMO_SOURCE, transport: "stdio", ...DEMO_SERVER });
    const read = deployment.tokens.read!;
    const conversations = syntheticConversations(64);
    const query = (index: number) => conversations[index % conversations.length].at(-1)!.content;
    const combination = (index: number) => COMBINATIONS[index % COMBINATIONS.length];
    const http = async (route: string, body: unknown) => (await expectOk(deployment, "POST", `/api/catalogs/${CATALOG}/${route}`, body, { token: read })).ms;
    const open = async (index: number) => {
      const session = await openSession(deployment, read, combination(index));
      await session.close();
      return session.openMs;
    };
    const directCall = async () => {
      const started = performance.now();
      expectResult(await direct.client.callTool({ name: DEMO_CALL.tool, arguments: DEMO_CALL.arguments }), DEMO_CALL.tool);
      return performance.now() - started;
    };
    // In this order: the gateway first, so its first figures are those of a server fresh from the import.
    const operations: { path: Row["path"]; what: string; run: () => Promise<Measured> }[] = [
      { path: "gateway", what: "session open (initialize + initialized)", run: () => measure(requests, open) },
      {
        path: "gateway",
        what: "tools/list",
        run: () => measureInSessions(deployment, read, requests, (client) => client.listTools()),
      },
      {
        path: "gateway",
        what: `tools/call ${PROXIED_CALL.name} (proxied to the stdio server)`,
        run: () => measureInSessions(deployment, read, requests, async (client) => expectResult(await client.callTool(PROXIED_CALL), PROXIED_CALL.name)),
      },
      {
        path: "gateway",
        what: "tools/call ToolSearch",
        run: () =>
          measureInSessions(deployment, read, requests, async (client, index) =>
            expectResult(await client.callTool({ name: "ToolSearch", arguments: { query: query(index) } }), "ToolSearch"),
          ),
      },
      {
        path: "HTTP API",
        what: "POST tool-list",
        run: () => measure(requests, (index) => http("tool-list", combination(index))),
      },
      {
        path: "HTTP API",
        what: "POST tool-search",
        run: () => measure(requests, (index) => http("tool-search", { ...combination(index), query: query(index) })),
      },
      { path: "stdio, no Toolshed", what: `tools/call ${DEMO_CALL.tool} (c=8: 8 at once on one connection)`, run: () => measure(requests, directCall) },
    ];
    const rows: Row[] = [];
    for (const { path, what, run } of operations) rows.push({ path, what, ...(await run()) });
    // How long each list is (untimed): the gateway lists the session's turn set, the HTTP API the whole visible list.
    const session = await openSession(deployment, read, combination(0));
    const listed = (await session.client.listTools()).tools.length;
    await session.close();
    const whole = ((await expectOk(deployment, "POST", `/api/catalogs/${CATALOG}/tool-list`, combination(0), { token: read })).body as { tools: unknown[] })
      .tools.length;
    const afterEdit = await toolsListAfterEdits(deployment, read, names, Math.max(8, Math.round(requests / 5)));
    return { size, rows, listed, whole, afterEdit };
  } finally {
    await direct.close();
    await deployment.stop();
  }
}

// ---------------------------------------------------------------------------------------------
// Report

/** Issue 29's targets for the first request after a one-tool edit, p50 ms. */
const AFTER_EDIT_TARGETS: Record<number, number> = { 10000: 25, 50000: 60 };

function report({ size, rows, listed, whole, afterEdit }: SizeFigures): string {
  const table = markdownTable(
    ["path", "what", "c=1 p50 / p95 / p99 ms", "c=8 p50 / p95 / p99 ms", "first ms"],
    rows.map((row) => [row.path, row.what, percentilesCell(row.byConcurrency[1]), percentilesCell(row.byConcurrency[8]), ms(row.first)]),
  );
  const lists = `The gateway's tools/list answers ${listed} tools (the session's turn set: the agent's base tools, ToolSearch, ToolCall); POST tool-list answers ${whole.toLocaleString("en")} (the whole list the model and agent may see).`;
  const target = AFTER_EDIT_TARGETS[size] === undefined ? "" : ` (target p50 ≤ ${AFTER_EDIT_TARGETS[size]} ms)`;
  const edits = `The gateway's tools/list, first request after a one-tool edit (a session per combination, combinations rotating): p50 / p95 ${ms(afterEdit.p50)} / ${ms(afterEdit.p95)} ms${target}.`;
  return `### ${size.toLocaleString("en")} tools\n\n${table}\n\n${lists}\n\n${edits}`;
}

async function main(): Promise<void> {
  const options = benchArguments(USAGE, "10000");
  if (!options) return;
  const { sizes, requests } = options;
  ensureBuild();
  const results: SizeFigures[] = [];
  for (const size of sizes) {
    console.error(`Measuring the gateway at ${size.toLocaleString("en")} tools …`);
    results.push(await measureSize(size, requests));
  }
  const conditions = `${os.cpus().length} cores, load average ${os.loadavg()[1].toFixed(1)} over the last 5 minutes at the end, ${requests} requests per operation and concurrency, 8 model/agent combinations rotating, a session renewed every ${SESSION_REQUESTS} requests`;
  console.log(`## Through the MCP gateway against the production build, on SQLite (${conditions})\n`);
  for (const figures of results) console.log(`${report(figures)}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
