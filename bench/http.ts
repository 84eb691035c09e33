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
import os from "node:os";
import { Worker } from "node:worker_threads";
import {
  benchArguments,
  CATALOG,
  type DatabaseKind,
  type Deployment,
  ensureBuild,
  expectOk,
  importCatalog,
  importDocument,
  type Measured,
  measure,
  ms,
  type Percentiles,
  percentiles,
  percentilesCell,
  resentRequests,
  startDeployment,
} from "./deployment";
import { AFTER_EDIT_HEADINGS, type AfterEditFigures, afterEditRows, EditableCatalog, measureAfterEdits } from "./after-edit";
import { hotRoutes } from "./hot-routes";
import { treeRss } from "./process-tree";
import { fixed, markdownTable } from "./table";
import { measureTracingCost, type TracingCost, tracingCostReport } from "./tracing-cost";

const USAGE = `Usage: npm run bench:http [-- --sizes 1000,10000,50000 --requests 200 --postgres --tracing]

  --sizes      catalog sizes to measure, each on a fresh database (default 1000,10000,50000)
  --requests   requests per route and concurrency (default 200)
  --postgres   after SQLite (one instance), measure two instances on a throwaway PostgreSQL
               (Debian's postgresql package), the requests sent to them in turn
  --tracing    then, per size, what tracing costs: a server with tracing off and one sending its
               spans to a local OTLP/HTTP receiver, requests alternating between them
  --baseline   with --tracing, a third server: the build of another checkout (a path; e.g. a
               git worktree of the release before, \`npm ci\` and \`next build\` run in it)
  BENCH_PORT   the first instance's port (default 3490; the second instance's is the next)`;

/** Writes per route whose next request is timed (one-tool edits; half as many imports of 100 tools, so that their median too rests on 20). */
const AFTER_EDIT_ROUNDS = 40;

const TARGETS: Record<number, { p50: number; p99?: number }> = { 10000: { p50: 15, p99: 60 }, 50000: { p50: 60 } };

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
 * Imports the catalog (see importCatalog) while /api/health is polled on the instance that runs
 * it; gives back what the writes measured later need of it (the document itself is dropped).
 */
async function timedImport(
  deployment: Deployment,
  document: ReturnType<typeof importDocument>,
): Promise<{ seconds: number; health: Percentiles; healthSamples: number; catalog: EditableCatalog }> {
  const origin = deployment.next();
  const poller = pollHealth(origin);
  const started = performance.now();
  let seconds = 0;
  let health: number[] = [];
  try {
    await importCatalog(deployment, document, origin);
    seconds = (performance.now() - started) / 1000;
  } finally {
    health = await poller.stop();
  }
  return { seconds, health: percentiles(health), healthSamples: health.length, catalog: new EditableCatalog(document) };
}

// ---------------------------------------------------------------------------------------------
// One catalog size

interface RouteFigures extends Measured {
  route: string;
}

interface SizeFigures {
  size: number;
  importSeconds: number;
  health: Percentiles;
  healthSamples: number;
  routes: RouteFigures[];
  afterEdits: AfterEditFigures[];
  /** Each instance's, the highest sampled from the import to the last request before the writes (issue 29's reference: the bench had no writes before). */
  peakRssBeforeWritesBytes: number[];
  /** Each instance's, the highest sampled from the import to the last request. */
  peakRssBytes: number[];
  /** Each instance's, after the last request. */
  rssBytes: number[];
}

/** Samples each instance's RSS every 100 ms until stopped, keeping the highest: the end of a run is one point of a collector's sawtooth. */
function samplePeakRss(deployment: Deployment): { now(): number[]; stop(): number[] } {
  const peaks = deployment.instances.map(() => 0);
  const sample = () =>
    deployment.instances.forEach(({ child }, index) => {
      peaks[index] = Math.max(peaks[index], treeRss(child.pid!));
    });
  const timer = setInterval(sample, 100).unref();
  return {
    now() {
      sample();
      return [...peaks];
    },
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
    const imported = await timedImport(deployment, importDocument(size));
    const routes = hotRoutes(deployment);
    const figures: RouteFigures[] = [];
    for (const { route, run } of routes) figures.push({ route, ...(await measure(requests, run)) });
    const peakRssBeforeWritesBytes = peakRss.now();
    const afterEdits = await measureAfterEdits(deployment, imported.catalog, routes, Math.min(requests, AFTER_EDIT_ROUNDS));
    return {
      size,
      importSeconds: imported.seconds,
      health: imported.health,
      healthSamples: imported.healthSamples,
      routes: figures,
      afterEdits,
      peakRssBeforeWritesBytes,
      peakRssBytes: peakRss.stop(),
      rssBytes: deployment.instances.map(({ child }) => treeRss(child.pid!)),
    };
  } finally {
    await deployment.stop();
  }
}

// ---------------------------------------------------------------------------------------------
// Report

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
          percentilesCell(one),
          percentilesCell(eight),
          fixed(eight.perSecond, 0),
          ms(figures.first),
          targetFor(result.size, figures.route),
        ];
      }),
    ),
  );
  const importTargets: Record<number, string> = { 10000: "≤ 10 s, health p99 ≤ 100 ms", 50000: "≤ 60 s, health p99 ≤ 100 ms" };
  const imports = markdownTable(
    ["tools", "import s", "/api/health during import p50 / p99 ms (samples)", "server RSS MB, peak before the writes / peak / at the end", "target"],
    results.map((result) => [
      result.size.toLocaleString("en"),
      fixed(result.importSeconds, 1),
      `${ms(result.health.p50)} / ${ms(result.health.p99)} (${result.healthSamples})`,
      [result.peakRssBeforeWritesBytes, result.peakRssBytes, result.rssBytes]
        .map((each) => each.map((bytes) => fixed(bytes / 1024 / 1024, 0)).join(" + "))
        .join(" / "),
      `${importTargets[result.size] ?? "—"}${result.size === 50_000 ? "; peak RSS ≤ 1,024 MB" : ""}`,
    ]),
  );
  const afterEdits = markdownTable(
    AFTER_EDIT_HEADINGS,
    results.flatMap((result) => afterEditRows(result.size, result.afterEdits)),
  );
  return `${latency}\n\n${afterEdits}\n\n${imports}`;
}

const HEADINGS: Record<DatabaseKind, string> = {
  sqlite: "Over HTTP against the production build",
  postgres: "Over HTTP against the production build, two instances on PostgreSQL (requests to each in turn)",
};

async function main(): Promise<void> {
  const options = benchArguments(USAGE, "1000,10000,50000", ["postgres", "tracing"], ["baseline"]);
  if (!options) return;
  const { sizes, requests } = options;
  const kinds: DatabaseKind[] = options.switches.has("postgres") ? ["sqlite", "postgres"] : ["sqlite"];
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
  const tracing: TracingCost[] = [];
  for (const size of options.switches.has("tracing") ? sizes : []) {
    console.error(`Measuring what tracing costs at ${size.toLocaleString("en")} tools …`);
    tracing.push(await measureTracingCost(size, requests, options.strings.baseline));
  }
  const conditions = `${os.cpus().length} cores, load average ${os.loadavg()[1].toFixed(1)} over the last 5 minutes at the end, ${requests} requests per route and concurrency, 8 model/agent combinations rotating`;
  for (const [kind, figures] of results) {
    console.log(`## ${HEADINGS[kind]} (${conditions})\n`);
    console.log(`${report(figures)}\n`);
  }
  if (tracing.length > 0) {
    const spans = tracing.map(({ spans }) => spans.toLocaleString("en")).join(", ");
    console.log(`## What tracing costs: requests alternating between a server with tracing off and one with it on, on SQLite (${spans} spans received)\n`);
    console.log(`${tracingCostReport(tracing)}\n`);
  }
  console.log(`Requests sent again on a new connection after the server closed an idle kept-alive one: ${resentRequests()}.`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
