import { CATALOG, COMBINATIONS, type Deployment, expectOk, FIRST_PORT, importCatalog, importDocument, ms, percentiles, startDeployment } from "./deployment";
import { hotRoutes } from "./hot-routes";
import { startOtlpReceiver } from "./otlp-receiver";
import { treeCpuMs } from "./process-tree";
import { fixed, markdownTable } from "./table";

/** How long the SDK's batch span processor holds spans before it exports them (its default), and a margin. */
const EXPORT_DELAY_MS = 5_000 + 1_000;

interface RouteCost {
  route: string;
  /** c=1 p50, in ms: tracing off, then on. */
  p50: [number, number];
  /** The server's CPU time per request, in ms (its process tree's, exports included): tracing off, then on. */
  cpuMs: [number, number];
}

export interface TracingCost {
  size: number;
  routes: RouteCost[];
  spans: number;
}

const cpuOf = (deployment: Deployment) => treeCpuMs(deployment.instances[0].child.pid!);

/** Both servers on a fresh database with the bench catalog of `size` tools. */
async function startPair(size: number, tracingEndpoint: string): Promise<[Deployment, Deployment]> {
  const untraced = await startDeployment("sqlite", { port: FIRST_PORT });
  let traced: Deployment | undefined;
  try {
    traced = await startDeployment("sqlite", { port: FIRST_PORT + 1, env: { OTEL_EXPORTER_OTLP_ENDPOINT: tracingEndpoint } });
    const document = importDocument(size);
    for (const deployment of [untraced, traced]) {
      await expectOk(deployment, "POST", "/api/catalogs", { name: "Bench", id: CATALOG });
      await importCatalog(deployment, document);
    }
    return [untraced, traced];
  } catch (error) {
    await Promise.all([untraced.stop(), traced?.stop()]);
    throw error;
  }
}

/**
 * What tracing costs the hot routes (`bench:http -- --tracing`): two `next start` with the same
 * catalog, the second exporting every span to a local OTLP receiver (a process of its own, as a
 * collector is). Requests alternate between them at concurrency 1, the order swapped each round,
 * so that whatever else the machine does falls on both alike: one run's difference means more
 * than two runs' p50s, which move by ±20 % from one run to the next here.
 */
export async function measureTracingCost(size: number, requests: number): Promise<TracingCost> {
  const receiver = await startOtlpReceiver();
  try {
    const servers = await startPair(size, receiver.endpoint);
    try {
      const [untracedRoutes, tracedRoutes] = servers.map(hotRoutes);
      const routes: RouteCost[] = [];
      for (const [index, { route }] of untracedRoutes.entries()) {
        const runs = [untracedRoutes[index].run, tracedRoutes[index].run];
        // Every combination once first: its list, index and statements are built before the clock runs.
        for (let turn = 0; turn < COMBINATIONS.length; turn++) for (const run of runs) await run(turn);
        const cpuBefore = servers.map(cpuOf);
        const samples: [number[], number[]] = [[], []];
        for (let turn = 0; turn < requests; turn++) {
          for (const server of turn % 2 ? [1, 0] : [0, 1]) samples[server].push(await runs[server](turn));
        }
        await new Promise((resolve) => setTimeout(resolve, EXPORT_DELAY_MS));
        const cpuMs = servers.map((server, at) => (cpuOf(server) - cpuBefore[at]) / requests) as [number, number];
        routes.push({ route, p50: [percentiles(samples[0]).p50, percentiles(samples[1]).p50], cpuMs });
      }
      return { size, routes, spans: receiver.spans() };
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
    }
  } finally {
    await receiver.close();
  }
}

const difference = (off: number, on: number) => `${on >= off ? "+" : "−"}${fixed((Math.abs(on - off) / off) * 100, 0)} %`;

export function tracingCostReport(results: TracingCost[]): string {
  return markdownTable(
    ["tools", "route", "c=1 p50 ms, tracing off", "tracing on", "difference", "server CPU ms per request, off / on"],
    results.flatMap(({ size, routes }) =>
      routes.map(({ route, p50, cpuMs }) => [
        size.toLocaleString("en"),
        route,
        ms(p50[0]),
        ms(p50[1]),
        difference(...p50),
        `${fixed(cpuMs[0], 2)} / ${fixed(cpuMs[1], 2)}`,
      ]),
    ),
  );
}
