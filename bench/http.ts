/**
 * What a caller waits for, over HTTP, against the production build (`next start`, built first if
 * needed) on a fresh SQLite database per catalog size: p50 / p95 / p99 of tool-list, preselect,
 * tool-search and the decisions list with 8 model/agent combinations rotating, at concurrency 1 and
 * 8; the import of the catalog with /api/health's latency measured during it; the server's RSS at
 * its highest (sampled every 100 ms from the import on) and after the last request. Each figure is
 * printed beside the issue's target for it. Traffic goes to 127.0.0.1 only.
 *
 * With --postgres, the same again, then on PostgreSQL: per catalog size a throwaway server
 * (scripts/postgres-server.ts) migrated by `npm run db:migrate`, two `next start` instances on it,
 * and the requests sent to them in turn, as a load balancer would; its table is printed after
 * SQLite's, in the same format.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import http from "node:http";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { Worker } from "node:worker_threads";
import zlib from "node:zlib";
import { startPostgres } from "../scripts/postgres-server";
import { seededRandom, syntheticCatalog, syntheticConversations } from "./synthetic";
import { fixed, markdownTable } from "./table";

const USAGE = `Usage: npm run bench:http [-- --sizes 1000,10000,50000 --requests 200 --postgres]

  --sizes      catalog sizes to measure, each on a fresh database (default 1000,10000,50000)
  --requests   requests per route and concurrency (default 200)
  --postgres   after SQLite (one instance), measure two instances on a throwaway PostgreSQL
               (Debian's postgresql package), the requests sent to them in turn
  BENCH_PORT   the first instance's port (default 3490; the second instance's is the next)`;

const FIRST_PORT = Number(process.env.BENCH_PORT ?? 3490);
const CATALOG = "bench";
const COMBINATIONS = ["gpt-5", "gpt-4.1", "claude-sonnet-4-5", "gemini-2.5-pro"].flatMap((model) => ["build", "plan"].map((agent) => ({ model, agent })));
const TARGETS: Record<number, { p50: number; p99?: number }> = { 10000: { p50: 15, p99: 60 }, 50000: { p50: 60 } };

// ---------------------------------------------------------------------------------------------
// The server

type DatabaseKind = "sqlite" | "postgres";

/** The database's instances: one on SQLite (a file is one machine's), two on PostgreSQL. */
const INSTANCES: Record<DatabaseKind, number> = { sqlite: 1, postgres: 2 };

/** The instances under test, with the token every request carries. */
interface Deployment {
  token: string;
  /** Each instance's origin (http://127.0.0.1:<port>) and `next start` process. */
  instances: { origin: string; child: ChildProcess }[];
  /** The instance for the next request: each in turn, as behind a load balancer. */
  next(): string;
  stop(): Promise<void>;
}

function ensureBuild(): void {
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

async function startDeployment(kind: DatabaseKind): Promise<Deployment> {
  const database = await freshDatabase(kind);
  const origins = Array.from({ length: INSTANCES[kind] }, (_, index) => `http://127.0.0.1:${FIRST_PORT + index}`);
  const env = {
    ...process.env,
    ...database.env,
    TOOLSHED_SEED: "0",
    TOOLSHED_URL: origins.join(","),
    TOOLSHED_MCP_SYNC_INTERVAL_MS: "0",
    TOOLSHED_RATE_LIMIT_READ: "0",
    TOOLSHED_RATE_LIMIT_WRITE: "0",
    TOOLSHED_RATE_LIMIT_MODEL: "0",
    NODE_ENV: "production" as const,
  };
  const instances: Deployment["instances"] = [];
  const stop = async () => {
    await Promise.all(instances.map(({ child }) => stopInstance(child)));
    await database.remove();
  };
  try {
    // Migrated first (`npm run db:migrate`'s script), then the token is made on it before the servers open it.
    const migrated = spawnSync(process.execPath, [...SERVER_TSX_ARGS, "scripts/migrate.ts"], { env, encoding: "utf8" });
    if (migrated.status !== 0) throw new Error(`Migrating the bench database failed: ${migrated.stderr}`);
    const created = spawnSync(
      process.execPath,
      [...SERVER_TSX_ARGS, "scripts/toolshed.ts", "token", "create", "--team", "default", "--scope", "admin", "--name", "bench"],
      { env, encoding: "utf8" },
    );
    if (created.status !== 0) throw new Error(`Creating the bench token failed: ${created.stderr}`);
    for (const origin of origins) {
      const port = new URL(origin).port;
      instances.push({
        origin,
        child: spawn("./node_modules/.bin/next", ["start", "-p", port], { env, stdio: ["ignore", "ignore", "inherit"], detached: true }),
      });
    }
    for (const { origin } of instances) await waitFor(async () => (await fetch(`${origin}/api/health`)).ok, 60_000, `the server at ${origin} to start`);
    let turn = 0;
    return { token: created.stdout.trim(), instances, next: () => origins[turn++ % origins.length], stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Resident memory of the server's whole process tree (next start runs the server in a child). */
function treeRss(rootPid: number): number {
  const parents = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // The process ended while we looked.
    }
  }
  const tree = new Set([rootPid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, parent] of parents) {
      if (tree.has(parent) && !tree.has(pid)) {
        tree.add(pid);
        grew = true;
      }
    }
  }
  let kib = 0;
  for (const pid of tree) {
    try {
      kib += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
    } catch {
      // Gone.
    }
  }
  return kib * 1024;
}

// ---------------------------------------------------------------------------------------------
// Requests

/** Requests sent again because the server had closed the kept-alive connection they went out on. */
let resent = 0;

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
async function send(url: string, method: string, headers: Record<string, string>, body?: string): Promise<Received> {
  try {
    return await receive(url, method, headers, body);
  } catch (error) {
    if (!CLOSED_CONNECTION.has((error as { code?: string }).code ?? "")) throw error;
    resent++;
    return receive(url, method, headers, body);
  }
}

/**
 * One request to the deployment's next instance, or to `origin`. Its body is parsed only when read:
 * parsing a 36.5 MB tool list costs the client ≈ 300 ms and a heap of over 100 MB, whose collection
 * could otherwise run during the next request's clock.
 */
async function call(
  deployment: Deployment,
  method: string,
  route: string,
  body?: unknown,
  origin = deployment.next(),
): Promise<{ status: number; body: unknown; ms: number }> {
  const started = performance.now();
  const { status, chunks } = await send(
    `${origin}${route}`,
    method,
    { authorization: `Bearer ${deployment.token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
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

/** Entity tags of the tool lists fetched so far, per deployment (token) and query. */
const entityTags = new Map<string, string>();

/**
 * GET …/tool-list as an agent asking every turn would: with the entity tag of the list it got
 * before (fetched once per query, untimed), so an unchanged list is answered 304 with no body, by
 * whichever instance the request reaches.
 */
async function revalidatedToolList(deployment: Deployment, query: Record<string, string>): Promise<number> {
  const route = `/api/catalogs/${CATALOG}/tool-list?${new URLSearchParams(query)}`;
  const authorization = `Bearer ${deployment.token}`;
  const key = `${deployment.token} ${route}`;
  let tag = entityTags.get(key);
  if (tag === undefined) {
    tag = (await send(`${deployment.next()}${route}`, "GET", { authorization })).etag ?? "";
    entityTags.set(key, tag);
  }
  const started = performance.now();
  const response = await send(`${deployment.next()}${route}`, "GET", { authorization, "if-none-match": tag });
  if (response.status !== 304) throw new Error(`GET tool-list with its entity tag → ${response.status}, not 304`);
  return performance.now() - started;
}

async function expectOk(deployment: Deployment, method: string, route: string, body?: unknown, origin?: string) {
  const answer = await call(deployment, method, route, body, origin);
  if (answer.status >= 300 && answer.status !== 202) throw new Error(`${method} ${route} → ${answer.status}: ${JSON.stringify(answer.body).slice(0, 500)}`);
  return answer;
}

const TYPES = ["string", "integer", "boolean", "number"] as const;

/** A labelled-set import document: realistic names and descriptions, schemas of 2–7 properties with enums and nesting. */
function importDocument(count: number) {
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

interface Percentiles {
  p50: number;
  p95: number;
  p99: number;
}

function percentiles(samples: number[]): Percentiles {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99) };
}

/** Runs `total` requests `concurrency` at a time; every request's latency, and requests per second. */
async function load(total: number, concurrency: number, request: (index: number) => Promise<number>): Promise<{ samples: number[]; perSecond: number }> {
  const samples: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) samples.push(await request(next++));
    }),
  );
  return { samples, perSecond: (total / (performance.now() - started)) * 1000 };
}

/**
 * Polls /api/health every 25 ms from a thread of its own until stopped: as another client would,
 * so the importer's own work on this thread (serialising a 30 MB document) is not counted as the
 * server's delay.
 */
const HEALTH_POLLER = `
const { parentPort, workerData } = require("node:worker_threads");
const samples = [];
let polling = true;
parentPort.once("message", () => (polling = false));
(async () => {
  while (polling) {
    const started = performance.now();
    const response = await fetch(workerData.url);
    await response.arrayBuffer();
    samples.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  parentPort.postMessage(samples);
})();
`;

function pollHealth(origin: string): { stop(): Promise<number[]> } {
  const worker = new Worker(HEALTH_POLLER, { eval: true, workerData: { url: `${origin}/api/health` } });
  return {
    stop: () =>
      new Promise<number[]>((resolve, reject) => {
        worker.once("message", (samples: number[]) => void worker.terminate().then(() => resolve(samples)));
        worker.once("error", reject);
        worker.postMessage("stop");
      }),
  };
}

/**
 * Imports the catalog (waiting for a job if the server makes one) while /api/health is polled on
 * the instance that runs it; the job's polls go to every instance in turn, as a load balancer sends them.
 */
async function timedImport(deployment: Deployment, count: number): Promise<{ seconds: number; health: Percentiles; healthSamples: number }> {
  const document = importDocument(count);
  const origin = deployment.next();
  const poller = pollHealth(origin);
  const started = performance.now();
  let seconds = 0;
  let health: number[] = [];
  try {
    const answer = await expectOk(deployment, "POST", `/api/catalogs/${CATALOG}/import`, document, origin);
    if (answer.status === 202) {
      const { url } = (answer.body as { job: { url: string } }).job;
      for (;;) {
        const job = (await expectOk(deployment, "GET", url, undefined, deployment.next())).body as { job: { status: string; error?: unknown } };
        if (job.job.status === "done") break;
        if (job.job.status === "failed") throw new Error(`Import failed: ${JSON.stringify(job.job.error)}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    seconds = (performance.now() - started) / 1000;
  } finally {
    health = await poller.stop();
  }
  return { seconds, health: percentiles(health), healthSamples: health.length };
}

// ---------------------------------------------------------------------------------------------
// One catalog size

interface RouteFigures {
  route: string;
  cold: number;
  byConcurrency: Record<number, Percentiles & { perSecond: number }>;
}

interface SizeFigures {
  size: number;
  importSeconds: number;
  health: Percentiles;
  healthSamples: number;
  routes: RouteFigures[];
  /** Each instance's, the highest sampled from the import to the last request. */
  peakRssBytes: number[];
  /** Each instance's, after the last request. */
  rssBytes: number[];
}

/** Samples each instance's RSS every 100 ms until stopped, keeping the highest: the end of a run is one point of a collector's sawtooth. */
function samplePeakRss(deployment: Deployment): { stop(): number[] } {
  const peaks = deployment.instances.map(() => 0);
  const sample = () =>
    deployment.instances.forEach(({ child }, index) => {
      peaks[index] = Math.max(peaks[index], treeRss(child.pid!));
    });
  const timer = setInterval(sample, 100).unref();
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peaks;
    },
  };
}

async function measureSize(kind: DatabaseKind, size: number, requests: number): Promise<SizeFigures> {
  const deployment = await startDeployment(kind);
  try {
    await expectOk(deployment, "POST", "/api/catalogs", { name: "Bench", id: CATALOG });
    const peakRss = samplePeakRss(deployment);
    const imported = await timedImport(deployment, size);
    const conversations = syntheticConversations(64);
    const combination = (index: number) => COMBINATIONS[index % COMBINATIONS.length];
    const routes: { route: string; run: (index: number) => Promise<number> }[] = [
      { route: "POST tool-list", run: async (i) => (await expectOk(deployment, "POST", `/api/catalogs/${CATALOG}/tool-list`, combination(i))).ms },
      { route: "GET tool-list, revalidated (304)", run: (i) => revalidatedToolList(deployment, combination(i)) },
      {
        route: "POST preselect",
        run: async (i) =>
          (
            await expectOk(deployment, "POST", `/api/catalogs/${CATALOG}/preselect`, {
              ...combination(i),
              messages: conversations[i % conversations.length],
              k: 10,
            })
          ).ms,
      },
      {
        route: "POST tool-search",
        run: async (i) =>
          (
            await expectOk(deployment, "POST", `/api/catalogs/${CATALOG}/tool-search`, {
              ...combination(i),
              query: conversations[i % conversations.length].at(-1)!.content,
            })
          ).ms,
      },
      { route: "GET decisions", run: async () => (await expectOk(deployment, "GET", `/api/catalogs/${CATALOG}/decisions`)).ms },
    ];
    const figures: RouteFigures[] = [];
    for (const { route, run } of routes) {
      // The first request after the import pays for building caches and indexes (one instance's:
      // the requests that follow warm the others').
      const cold = await run(0);
      for (let i = 1; i < COMBINATIONS.length; i++) await run(i);
      const byConcurrency: RouteFigures["byConcurrency"] = {};
      for (const concurrency of [1, 8]) {
        const { samples, perSecond } = await load(requests, concurrency, run);
        byConcurrency[concurrency] = { ...percentiles(samples), perSecond };
      }
      figures.push({ route, cold, byConcurrency });
    }
    return {
      size,
      importSeconds: imported.seconds,
      health: imported.health,
      healthSamples: imported.healthSamples,
      routes: figures,
      peakRssBytes: peakRss.stop(),
      rssBytes: deployment.instances.map(({ child }) => treeRss(child.pid!)),
    };
  } finally {
    await deployment.stop();
  }
}

// ---------------------------------------------------------------------------------------------
// Report

const ms = (value: number) => fixed(value, 1);

function targetFor(size: number, route: string): string {
  const target = TARGETS[size];
  if (!target || route === "GET decisions") return "—";
  return `p50 ≤ ${target.p50}${target.p99 ? `, p99 ≤ ${target.p99}` : ""}`;
}

function report(results: SizeFigures[]): string {
  const latency = markdownTable(
    ["tools", "route", "c=1 p50 / p95 / p99 ms", "c=8 p50 / p95 / p99 ms", "c=8 req/s", "first request ms", "target (ms)"],
    results.flatMap((result) =>
      result.routes.map((figures) => {
        const one = figures.byConcurrency[1];
        const eight = figures.byConcurrency[8];
        return [
          result.size.toLocaleString("en"),
          figures.route,
          `${ms(one.p50)} / ${ms(one.p95)} / ${ms(one.p99)}`,
          `${ms(eight.p50)} / ${ms(eight.p95)} / ${ms(eight.p99)}`,
          fixed(eight.perSecond, 0),
          ms(figures.cold),
          targetFor(result.size, figures.route),
        ];
      }),
    ),
  );
  const importTargets: Record<number, string> = { 10000: "≤ 10 s, health p99 ≤ 100 ms", 50000: "≤ 60 s, health p99 ≤ 100 ms" };
  const imports = markdownTable(
    ["tools", "import s", "/api/health during import p50 / p99 ms (samples)", "server RSS MB, peak / at the end", "target"],
    results.map((result) => [
      result.size.toLocaleString("en"),
      fixed(result.importSeconds, 1),
      `${ms(result.health.p50)} / ${ms(result.health.p99)} (${result.healthSamples})`,
      [result.peakRssBytes, result.rssBytes].map((each) => each.map((bytes) => fixed(bytes / 1024 / 1024, 0)).join(" + ")).join(" / "),
      `${importTargets[result.size] ?? "—"}${result.size === 50_000 ? "; peak RSS ≤ 1,024 MB" : ""}`,
    ]),
  );
  return `${latency}\n\n${imports}`;
}

const HEADINGS: Record<DatabaseKind, string> = {
  sqlite: "Over HTTP against the production build",
  postgres: "Over HTTP against the production build, two instances on PostgreSQL (requests to each in turn)",
};

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      sizes: { type: "string", default: "1000,10000,50000" },
      requests: { type: "string", default: "200" },
      postgres: { type: "boolean", default: false },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const sizes = values.sizes.split(",").map(Number);
  const requests = Number(values.requests);
  const kinds: DatabaseKind[] = values.postgres ? ["sqlite", "postgres"] : ["sqlite"];
  ensureBuild();
  const results = new Map<DatabaseKind, SizeFigures[]>();
  for (const kind of kinds) {
    const figures: SizeFigures[] = [];
    for (const size of sizes) {
      console.error(`Measuring ${size.toLocaleString("en")} tools on ${kind} …`);
      figures.push(await measureSize(kind, size, requests));
    }
    results.set(kind, figures);
  }
  const conditions = `${os.cpus().length} cores, load average ${os.loadavg()[1].toFixed(1)} over the last 5 minutes at the end, ${requests} requests per route and concurrency, 8 model/agent combinations rotating`;
  for (const [kind, figures] of results) {
    console.log(`## ${HEADINGS[kind]} (${conditions})\n`);
    console.log(`${report(figures)}\n`);
  }
  console.log(`Requests sent again on a new connection after the server closed an idle kept-alive one: ${resent}.`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
