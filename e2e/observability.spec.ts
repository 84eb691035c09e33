import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { parsePrometheus } from "../tests/support/prometheus";
import { type OwnApp, startOwnApp } from "./support/own-app";
import { TRACED_APP_PORT } from "./support/servers";

interface OtlpSpan {
  traceId: string;
  name: string;
  attributes: { key: string; value: Record<string, unknown> }[];
}

/** What a local OTLP/HTTP receiver was sent: the bodies of its POSTs to /v1/traces. */
const exports: string[] = [];
let receiver: Server;
let app: OwnApp;
let database: string;

const spans = () =>
  exports.flatMap((body) =>
    (JSON.parse(body) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] }).resourceSpans.flatMap((resource) =>
      resource.scopeSpans.flatMap((scope) => scope.spans),
    ),
  );
const attribute = (span: OtlpSpan, key: string) => {
  const value = span.attributes.find((entry) => entry.key === key)?.value;
  return value === undefined ? undefined : Object.values(value)[0];
};

/** A token made on the command line, as an operator makes the scraper's. */
const makeToken = (scope: "metrics" | "read") =>
  execFileSync("npm", ["run", "--silent", "toolshed", "--", "token", "create", "--team", "default", "--scope", scope, "--name", `e2e-${scope}`], {
    env: { ...process.env, TOOLSHED_DB: database },
    encoding: "utf8",
  }).trim();

test.beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (request.url === "/v1/traces") exports.push(Buffer.concat(chunks).toString("utf8"));
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  database = path.join(mkdtempSync(path.join(os.tmpdir(), "toolshed-e2e-traced-")), "toolshed.db");
  app = await startOwnApp(TRACED_APP_PORT, {
    TOOLSHED_DB: database,
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`,
    OTEL_SERVICE_NAME: "toolshed-e2e",
  });
});

test.afterAll(async () => {
  app?.stop();
  await new Promise((resolve) => receiver.close(resolve));
});

test("the production build answers Prometheus text to a metrics token and sends each request's spans to the OTLP collector, without secrets", async ({
  request,
}) => {
  const metricsToken = makeToken("metrics");
  const readToken = makeToken("read");
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const message = "find my notes about the quarterly budget";

  const preselect = await request.post(`${app.url}/api/catalogs/demo/preselect`, {
    headers: bearer(readToken),
    data: { model: "gpt-5", agent: "build", messages: [{ role: "user", content: message }] },
  });
  expect(preselect.status()).toBe(200);
  // The metrics token reads the metrics and nothing else; a read token may not read them.
  expect((await request.get(`${app.url}/api/catalogs/demo/tools`, { headers: bearer(metricsToken) })).status()).toBe(404);
  expect((await request.get(`${app.url}/api/metrics`, { headers: bearer(readToken) })).status()).toBe(403);

  const scraped = await request.get(`${app.url}/api/metrics`, { headers: bearer(metricsToken) });
  expect(scraped.status()).toBe(200);
  expect(scraped.headers()["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
  const { samples, types } = parsePrometheus(await scraped.text());
  expect(types.get("toolshed_http_request_duration_seconds")).toBe("histogram");
  const counted = samples.find(
    (sample) => sample.name === "toolshed_http_requests_total" && sample.labels.route === "/api/catalogs/{catalog}/preselect" && sample.labels.status === "200",
  );
  expect(counted?.value).toBe(1);
  expect(samples.some((sample) => sample.name === "toolshed_selector_duration_seconds_count" && sample.labels.use === "preselect")).toBe(true);
  expect(samples.some((sample) => sample.name === "process_resident_memory_bytes")).toBe(true);

  // The spans are exported in batches: the preselection's request span and its children, in one trace.
  await expect.poll(() => spans().some((span) => span.name === "toolshed.preselect"), { timeout: 20_000 }).toBe(true);
  const preselection = spans().find((span) => span.name === "toolshed.preselect")!;
  expect(attribute(preselection, "toolshed.catalog")).toBe("demo");
  expect(attribute(preselection, "toolshed.model")).toBe("gpt-5");
  await expect
    .poll(() =>
      spans()
        .filter((span) => span.traceId === preselection.traceId)
        .map((span) => span.name),
    )
    .toEqual(expect.arrayContaining(["POST /api/catalogs/{catalog}/preselect", "toolshed.pipeline", "toolshed.selector"]));
  const sent = exports.join("\n");
  for (const secret of [readToken, metricsToken, message]) expect(sent).not.toContain(secret);
});
