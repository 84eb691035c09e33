/**
 * What the HTTP benchmarks share (`npm run bench:http`, `npm run bench:gateway`): the production
 * build (`next start`, built first if needed) on a fresh database with its tokens made on the
 * command line, requests to it on kept-alive connections, the synthetic catalog's import, a load
 * of requests at a chosen concurrency and its percentiles. Traffic goes to 127.0.0.1 only.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import http from "node:http";
import { existsSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import zlib from "node:zlib";
import type { TokenScope } from "../lib/auth/policy";
import { startPostgres } from "../scripts/postgres-server";
import { seededRandom, syntheticCatalog } from "./synthetic";
import { fixed } from "./table";

export const FIRST_PORT = Number(process.env.BENCH_PORT ?? 3490);
export const CATALOG = "bench";
export const COMBINATIONS = ["gpt-5", "gpt-4.1", "claude-sonnet-4-5", "gemini-2.5-pro"].flatMap((model) =>
  ["build", "plan"].map((agent) => ({ model, agent })),
);

// ---------------------------------------------------------------------------------------------
// The server

export type DatabaseKind = "sqlite" | "postgres";

/** The database's instances: one on SQLite (a file is one machine's), two on PostgreSQL. */
const INSTANCES: Record<DatabaseKind, number> = { sqlite: 1, postgres: 2 };

/** The instances under test, with the tokens requests carry. */
export interface Deployment {
  /** What every request carries unless it names another: the token of the first scope asked for. */
  token: string;
  /** A token of each scope asked for, all of team "default". */
  tokens: Partial<Record<TokenScope, string>>;
  /** Each instance's origin (http://127.0.0.1:<port>) and `next start` process. */
  instances: { origin: string; child: ChildProcess }[];
  /** The instance for the next request: each in turn, as behind a load balancer. */
  next(): string;
  stop(): Promise<void>;
}

export function ensureBuild(): void {
  if (existsSync(".next/BUILD_ID")) return;
  console.error("No production build: running next build …");
  const build = spawnSync("./node_modules/.bin/next", ["build"], { stdio: "inherit" });
  if (build.status !== 0) throw new Error("next build failed");
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

/** Node's arguments for the project's scripts: tsx, under React's server condition ("server-only" modules load). */
const SERVER_TSX_ARGS = ["--conditions=react-server", "--import", "tsx"];

/** A fresh database of the kind: the environment that names it, and what removes it. */
async function freshDatabase(kind: DatabaseKind): Promise<{ env: Record<string, string>; remove(): Promise<void> }> {
  if (kind === "postgres") {
    const server = await startPostgres();
    return { env: { TOOLSHED_DATABASE_URL: server.url }, remove: () => server.stop() };
  }
  const database = path.join(mkdtempSync(path.join(os.tmpdir(), "toolshed-bench-")), "bench.db");
  // An empty TOOLSHED_DATABASE_URL is none: the SQLite file even where the shell sets one.
  return { env: { TOOLSHED_DB: database, TOOLSHED_DATABASE_URL: "" }, remove: async () => {} };
}

/** Stops a `next start` (its process group: it runs the server in a child) and waits until it has exited. */
async function stopInstance(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  if (child.pid) process.kill(-child.pid, "SIGTERM");
  await exited;
}

/**
 * The production build on a fresh database of the kind, migrated, with a token of each scope in
 * `scopes` (the first is the one requests carry by default) and `env` added to the servers' environment;
 * the instances listen on `port` and the ports after it (BENCH_PORT's by default), and run the
 * build of the checkout at `cwd` (this one by default; another, built, to compare with a baseline).
 */
export async function startDeployment(
  kind: DatabaseKind,
  {
    scopes = ["admin"],
    env: extraEnv = {},
    port = FIRST_PORT,
    cwd = process.cwd(),
  }: { scopes?: TokenScope[]; env?: Record<string, string>; port?: number; cwd?: string } = {},
): Promise<Deployment> {
  const database = await freshDatabase(kind);
  const origins = Array.from({ length: INSTANCES[kind] }, (_, index) => `http://127.0.0.1:${port + index}`);
  const env = {
    ...process.env,
    ...database.env,
    TOOLSHED_SEED: "0",
    TOOLSHED_URL: origins.join(","),
    TOOLSHED_MCP_SYNC_INTERVAL_MS: "0",
    TOOLSHED_RATE_LIMIT_READ: "0",
    TOOLSHED_RATE_LIMIT_WRITE: "0",
    TOOLSHED_RATE_LIMIT_MODEL: "0",
    ...extraEnv,
    NODE_ENV: "production" as const,
  };
  const instances: Deployment["instances"] = [];
  const stop = async () => {
    await Promise.all(instances.map(({ child }) => stopInstance(child)));
    await database.remove();
  };
  try {
    // Migrated first (`npm run db:migrate`'s script), then the tokens are made on it before the servers open it.
    const migrated = spawnSync(process.execPath, [...SERVER_TSX_ARGS, "scripts/migrate.ts"], { cwd, env, encoding: "utf8" });
    if (migrated.status !== 0) throw new Error(`Migrating the bench database failed: ${migrated.stderr}`);
    const tokens: Deployment["tokens"] = {};
    for (const scope of scopes) {
      const created = spawnSync(
        process.execPath,
        [...SERVER_TSX_ARGS, "scripts/toolshed.ts", "token", "create", "--team", "default", "--scope", scope, "--name", `bench-${scope}`],
        { cwd, env, encoding: "utf8" },
      );
      if (created.status !== 0) throw new Error(`Creating the bench's ${scope} token failed: ${created.stderr}`);
      tokens[scope] = created.stdout.trim();
    }
    for (const origin of origins) {
      const port = new URL(origin).port;
      instances.push({
        origin,
        child: spawn("./node_modules/.bin/next", ["start", "-p", port], { cwd, env, stdio: ["ignore", "ignore", "inherit"], detached: true }),
      });
    }
    for (const { origin } of instances) await waitFor(async () => (await fetch(`${origin}/api/health`)).ok, 60_000, `the server at ${origin} to start`);
    let turn = 0;
    return { token: tokens[scopes[0]]!, tokens, instances, next: () => origins[turn++ % origins.length], stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Requests

/** Requests sent again because the server had closed the kept-alive connection they went out on. */
let resent = 0;
export const resentRequests = () => resent;

/** How a request fails when the connection it went out on was closed by the server meanwhile. */
const CLOSED_CONNECTION = new Set(["EPIPE", "ECONNRESET"]);

/** Kept-alive connections, as an agent's HTTP client keeps them; at most 16 per instance (concurrency is 8). */
const keptAlive = new http.Agent({ keepAlive: true, maxSockets: 16 });

/** An answer as received: its body's chunks, decompressed when the server compressed it, and the clock stopped at the last byte. */
interface Received {
  status: number;
  etag: string | undefined;
  chunks: Buffer[];
}

/**
 * One request, its body read to the last byte. With node:http rather than fetch: fetch's web
 * streams cost the client ≈ 5 ms per 7 MB body here (curl receives the 10,000-tool list in 6–9 ms,
 * fetch in 11–13), which is the client's time, not the server's. It asks for gzip as agents' clients do.
 */
function receive(url: string, method: string, headers: Record<string, string>, body?: string): Promise<Received> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method,
        agent: keptAlive,
        headers: { "accept-encoding": "gzip", ...headers, ...(body === undefined ? {} : { "content-length": String(Buffer.byteLength(body)) }) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        const stream = response.headers["content-encoding"] === "gzip" ? response.pipe(zlib.createGunzip()) : response;
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.once("end", () => resolve({ status: response.statusCode ?? 0, etag: response.headers.etag, chunks }));
        stream.once("error", reject);
        response.once("error", reject);
      },
    );
    request.once("error", reject);
    request.end(body);
  });
}

/**
 * One request on a kept-alive connection. When the client's event loop was busy (building or
 * parsing tens of megabytes) past the server's keep-alive timeout, the server may already have
 * closed the idle connection the request goes out on: it is sent once more on a new one, and counted.
 */
export async function send(url: string, method: string, headers: Record<string, string>, body?: string): Promise<Received> {
  try {
    return await receive(url, method, headers, body);
  } catch (error) {
    if (!CLOSED_CONNECTION.has((error as { code?: string }).code ?? "")) throw error;
    resent++;
    return receive(url, method, headers, body);
  }
}

/** Where a request goes (the deployment's next instance unless named) and the token it carries (the deployment's unless named). */
export interface Target {
  origin?: string;
  token?: string;
}

/**
 * One request. Its body is parsed only when read: parsing a 36.5 MB tool list costs the client
 * ≈ 300 ms and a heap of over 100 MB, whose collection could otherwise run during the next request's clock.
 */
async function call(
  deployment: Deployment,
  method: string,
  route: string,
  body?: unknown,
  { origin = deployment.next(), token = deployment.token }: Target = {},
): Promise<{ status: number; body: unknown; ms: number }> {
  const started = performance.now();
  const { status, chunks } = await send(
    `${origin}${route}`,
    method,
    { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body === undefined ? undefined : JSON.stringify(body),
  );
  const ms = performance.now() - started;
  return {
    status,
    ms,
    get body() {
      const text = Buffer.concat(chunks).toString("utf8");
      return text ? JSON.parse(text) : null;
    },
  };
}

/** One request that must succeed (2xx): its answer, timed to the last byte. */
export async function expectOk(deployment: Deployment, method: string, route: string, body?: unknown, target?: Target) {
  const answer = await call(deployment, method, route, body, target);
  if (answer.status >= 300 && answer.status !== 202) throw new Error(`${method} ${route} → ${answer.status}: ${JSON.stringify(answer.body).slice(0, 500)}`);
  return answer;
}

// ---------------------------------------------------------------------------------------------
// The catalog

const TYPES = ["string", "integer", "boolean", "number"] as const;

/** A labelled-set import document: realistic names and descriptions, schemas of 2–7 properties with enums and nesting. */
export function importDocument(count: number) {
  const random = seededRandom(count);
  return {
    tools: syntheticCatalog(count).map((tool) => {
      const properties: Record<string, unknown> = {};
      for (const name of tool.parameterNames ?? []) {
        const type = TYPES[Math.floor(random() * TYPES.length)];
        properties[name] = { type, description: `The ${name.replace(/([A-Z])/g, " $1").toLowerCase()} to use.` };
      }
      if (random() < 0.5) properties.sort = { type: "string", enum: ["asc", "desc", "relevance"], description: "Sort order." };
      if (random() < 0.3) properties.filter = { type: "object", properties: { field: { type: "string" }, value: { type: "string" } }, required: ["field"] };
      return {
        name: tool.name,
        description: `${tool.summary} ${tool.description}`,
        parameters: { type: "object", properties, required: [tool.parameterNames?.[0]] },
      };
    }),
  };
}

/**
 * Imports the document (see importDocument) into the bench catalog through `origin`, waiting for
 * the job if the server makes one; the job's polls go to every instance in turn, as a load balancer sends them.
 */
export async function importCatalog(deployment: Deployment, document: ReturnType<typeof importDocument>, origin = deployment.next()): Promise<void> {
  const answer = await expectOk(deployment, "POST", `/api/catalogs/${CATALOG}/import`, document, { origin });
  if (answer.status !== 202) return;
  const { url } = (answer.body as { job: { url: string } }).job;
  for (;;) {
    const job = (await expectOk(deployment, "GET", url)).body as { job: { status: string; error?: unknown } };
    if (job.job.status === "done") return;
    if (job.job.status === "failed") throw new Error(`Import failed: ${JSON.stringify(job.job.error)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

// ---------------------------------------------------------------------------------------------
// Load and its figures

/**
 * The command line: --sizes (comma-separated), --requests and the boolean `switches`; undefined
 * after printing `usage` for --help.
 */
export function benchArguments(
  usage: string,
  defaultSizes: string,
  switches: string[] = [],
  strings: string[] = [],
): { sizes: number[]; requests: number; switches: Set<string>; strings: Record<string, string | undefined> } | undefined {
  const { values } = parseArgs({
    options: {
      sizes: { type: "string", default: defaultSizes },
      requests: { type: "string", default: "200" },
      help: { type: "boolean", short: "h" },
      ...Object.fromEntries(switches.map((name) => [name, { type: "boolean" as const, default: false }])),
      ...Object.fromEntries(strings.map((name) => [name, { type: "string" as const }])),
    },
  });
  if (values.help) {
    console.log(usage);
    return undefined;
  }
  return {
    sizes: String(values.sizes).split(",").map(Number),
    requests: Number(values.requests),
    switches: new Set(switches.filter((name) => (values as Record<string, unknown>)[name] === true)),
    strings: Object.fromEntries(strings.map((name) => [name, (values as Record<string, unknown>)[name] as string | undefined])),
  };
}

export interface Percentiles {
  p50: number;
  p95: number;
  p99: number;
}

export function percentiles(samples: number[]): Percentiles {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99) };
}

/**
 * Runs `total` requests `concurrency` at a time, each worker (0 … concurrency − 1) sending its
 * next request once its last one is answered; every request's latency, and requests per second.
 */
export async function load(
  total: number,
  concurrency: number,
  request: (index: number, worker: number) => Promise<number>,
): Promise<{ samples: number[]; perSecond: number }> {
  const samples: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      while (next < total) samples.push(await request(next++, worker));
    }),
  );
  return { samples, perSecond: (total / (performance.now() - started)) * 1000 };
}

/** An operation's latencies: its first run, and at each concurrency. */
export interface Measured {
  first: number;
  byConcurrency: Record<number, Percentiles & { perSecond: number }>;
}

type LoadResult = Awaited<ReturnType<typeof load>>;

/**
 * Measures an operation: its first run (which, first after the import, pays for building caches
 * and indexes: one instance's, the runs that follow warm the others'), one run per model/agent
 * combination, then `requests` at concurrency 1 and 8, run by `loadAt` (load by default).
 */
export async function measure(
  requests: number,
  run: (index: number, worker: number) => Promise<number>,
  loadAt: (concurrency: number) => Promise<LoadResult> = (concurrency) => load(requests, concurrency, run),
): Promise<Measured> {
  const first = await run(0, 0);
  for (let index = 1; index < COMBINATIONS.length; index++) await run(index, 0);
  const byConcurrency: Measured["byConcurrency"] = {};
  for (const concurrency of [1, 8]) {
    const { samples, perSecond } = await loadAt(concurrency);
    byConcurrency[concurrency] = { ...percentiles(samples), perSecond };
  }
  return { first, byConcurrency };
}

/** Milliseconds as the tables print them. */
export const ms = (value: number) => fixed(value, 1);

/** A percentiles cell: "p50 / p95 / p99". */
export const percentilesCell = ({ p50, p95, p99 }: Percentiles) => `${ms(p50)} / ${ms(p95)} / ${ms(p99)}`;
