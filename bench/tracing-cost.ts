import { CATALOG, COMBINATIONS, type Deployment, expectOk, FIRST_PORT, importCatalog, importDocument, ms, percentiles, startDeployment } from "./deployment";
import { hotRoutes } from "./hot-routes";
import { startOtlpReceiver } from "./otlp-receiver";
import { treeCpuMs } from "./process-tree";
import { fixed, markdownTable } from "./table";

/** How long the SDK's batch span processor holds spans before it exports them (its default), and a margin. */
const EXPORT_DELAY_MS = 5_000 + 1_000;

/** A server of the comparison: this build with tracing off, with it on, or the baseline checkout's build. */
interface Variant {
  label: string;
  env?: Record<string, string>;
  cwd?: string;
}

interface RouteCost {
  route: string;
  /** Per variant: c=1 p50, in ms. */
  p50: number[];
  /** Per variant: the server's CPU time per request, in ms (its process tree's, exports included). */
  cpuMs: number[];
}

export interface TracingCost {
  size: number;
  labels: string[];
  routes: RouteCost[];
  spans: number;
}

const cpuOf = (deployment: Deployment) => treeCpuMs(deployment.instances[0].child.pid!);

/** A server per variant, each on a fresh database with the bench catalog of `size` tools. */
async function startServers(size: number, variants: Variant[]): Promise<Deployment[]> {
  const servers: Deployment[] = [];
  try {
    const document = importDocument(size);
    for (const [index, { env, cwd }] of variants.entries()) {
      const server = await startDeployment("sqlite", { port: FIRST_PORT + index, env, cwd });
      servers.push(server);
      await expectOk(server, "POST", "/api/catalogs", { name: "Bench", id: CATALOG });
      await importCatalog(server, document);
    }
    return servers;
  } catch (error) {
    await Promise.all(servers.map((server) => server.stop()));
    throw error;
  }
}

/** One route on every server, requests in turn, the order rotating each round. */
async function measureRoute(servers: Deployment[], runs: ((index: number) => Promise<number>)[], requests: number): Promise<Omit<RouteCost, "route">> {
  // Every combination once first: its list, index and statements are built before the clock runs.
  for (let turn = 0; turn < COMBINATIONS.length; turn++) for (const run of runs) await run(turn);
  const cpuBefore = servers.map(cpuOf);
  const samples = servers.map((): number[] => []);
  for (let turn = 0; turn < requests; turn++) {
    for (let offset = 0; offset < servers.length; offset++) {
      const server = (turn + offset) % servers.length;
      samples[server].push(await runs[server](turn));
    }
  }
  await new Promise((resolve) => setTimeout(resolve, EXPORT_DELAY_MS));
  return { p50: samples.map((each) => percentiles(each).p50), cpuMs: servers.map((server, at) => (cpuOf(server) - cpuBefore[at]) / requests) };
}

/**
 * What tracing costs the hot routes (`bench:http -- --tracing`): this build with tracing off, the
 * same with every span exported to a local OTLP receiver (a process of its own, as a collector
 * is), and, given `baseline`, the build of that checkout (a release before, to compare with).
 * Requests go to each in turn at concurrency 1, so that whatever else the machine does falls on
 * all alike: one run's difference means more than two runs' p50s, which move by ±20 % here.
 */
export async function measureTracingCost(size: number, requests: number, baseline?: string): Promise<TracingCost> {
  const receiver = await startOtlpReceiver();
  try {
    const variants: Variant[] = [
      { label: "tracing off" },
      { label: "tracing on", env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint } },
      ...(baseline ? [{ label: `baseline (${baseline})`, cwd: baseline }] : []),
    ];
    const servers = await startServers(size, variants);
    try {
      const routes = servers.map(hotRoutes);
      const figures: RouteCost[] = [];
      for (const [index, { route }] of routes[0].entries()) {
        figures.push({
          route,
          ...(await measureRoute(
            servers,
            routes.map((each) => each[index].run),
            requests,
          )),
        });
      }
      return { size, labels: variants.map(({ label }) => label), routes: figures, spans: receiver.spans() };
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
    }
  } finally {
    await receiver.close();
  }
}

const difference = (from: number, to: number) => `${to >= from ? "+" : "−"}${fixed((Math.abs(to - from) / from) * 100, 0)} %`;

/** Each variant's p50, tracing on against off (and against the baseline, if measured), and CPU per request. */
export function tracingCostReport(results: TracingCost[]): string {
  const labels = results[0].labels;
  const againstBaseline = labels.length > 2;
  return markdownTable(
    [
      "tools",
      "route",
      ...labels.map((label) => `c=1 p50 ms, ${label}`),
      "on against off",
      ...(againstBaseline ? ["on against baseline"] : []),
      `server CPU ms per request (${labels.join(" / ")})`,
    ],
    results.flatMap(({ size, routes }) =>
      routes.map(({ route, p50, cpuMs }) => [
        size.toLocaleString("en"),
        route,
        ...p50.map(ms),
        difference(p50[0], p50[1]),
        ...(againstBaseline ? [difference(p50[2], p50[1])] : []),
        cpuMs.map((each) => fixed(each, 2)).join(" / "),
      ]),
    ),
  );
}
