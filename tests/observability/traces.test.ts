/**
 * OpenTelemetry: with OTEL_EXPORTER_OTLP_ENDPOINT set, startTracing (what instrumentation.ts
 * calls) sends spans over OTLP/HTTP to that address. A local receiver gets a preselection's
 * request span with its route and status, and its children (the preselection with its catalog,
 * model and agent, the pipeline, the selector, database statements) in the same trace; none of
 * them carries the token, a header or the message. Next.js's own spans are not recorded. Log
 * lines inside a span carry its trace id.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { context, trace } from "@opentelemetry/api";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { TracerProvider } from "@opentelemetry/sdk-trace";
import { createCatalog } from "@/db/queries/catalogs";
import { log } from "@/lib/observability/log";
import { STATEMENT_MIN_MS_VARIABLE, startTracing, statementMinMsFrom, tracingConfigured } from "@/lib/observability/otel";
import { inSpan, setToolshedTracing, tracedStatement } from "@/lib/observability/tracing";
import { routeApiRequest } from "../support/api-routes";
import { apiRequest, createTestToken, useFreshDatabase } from "../api/helpers";

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: Record<string, unknown> }[];
}

/** What the receiver was sent: each request's path, content type and body. */
const received: { path: string; contentType: string; body: string }[] = [];
let receiver: Server;
let provider: TracerProvider;

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ path: request.url ?? "", contentType: request.headers["content-type"] ?? "", body: Buffer.concat(chunks).toString("utf8") });
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const { port } = receiver.address() as AddressInfo;
  vi.stubEnv("OTEL_EXPORTER_OTLP_ENDPOINT", `http://127.0.0.1:${port}`);
  vi.stubEnv("OTEL_SERVICE_NAME", "toolshed-under-test");
  // Every statement a span, however quick: the trace below shows one.
  vi.stubEnv(STATEMENT_MIN_MS_VARIABLE, "0");
  provider = startTracing()!;
});

afterAll(async () => {
  await provider?.shutdown();
  setToolshedTracing(undefined);
  context.disable();
  vi.unstubAllEnvs();
  await new Promise((resolve) => receiver.close(resolve));
});

const attribute = (span: OtlpSpan, key: string) => {
  const value = span.attributes.find((entry) => entry.key === key)?.value;
  return value === undefined ? undefined : Object.values(value)[0];
};

describe("traces", () => {
  it("start only when an OTLP endpoint is set, and not when the SDK is disabled", () => {
    expect(tracingConfigured({})).toBe(false);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" })).toBe(true);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://collector:4318/v1/traces" })).toBe(true);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_SDK_DISABLED: "true" })).toBe(false);
  });

  it("reach a local OTLP/HTTP receiver: a span per request, with the preselection, pipeline, selector and database as its children, and no secret", async () => {
    const db = await useFreshDatabase();
    await createCatalog(db, { id: "demo", name: "Demo", teamId: "default" }, "tests");
    const token = await createTestToken(db, "read", "traced");
    const message = "read the quarterly numbers file";
    const response = await routeApiRequest(
      apiRequest("/api/catalogs/demo/preselect", {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ model: "gpt-5", agent: "build", messages: [{ role: "user", content: message }] }),
      }),
    );
    expect(response.status).toBe(200);
    await provider.forceFlush();

    expect(received.length).toBeGreaterThan(0);
    expect(received.every((request) => request.path === "/v1/traces" && request.contentType.startsWith("application/json"))).toBe(true);
    const payloads = received.map((request) => JSON.parse(request.body));
    const spans: OtlpSpan[] = payloads.flatMap((payload) =>
      payload.resourceSpans.flatMap((resource: { scopeSpans: { spans: OtlpSpan[] }[] }) => resource.scopeSpans.flatMap((scope) => scope.spans)),
    );
    const service = payloads[0].resourceSpans[0].resource.attributes.find((entry: { key: string }) => entry.key === "service.name");
    expect(service.value.stringValue).toBe("toolshed-under-test");

    const root = spans.find((span) => span.name === "POST /api/catalogs/{catalog}/preselect")!;
    expect(root).toBeDefined();
    expect(root.parentSpanId ?? "").toBe("");
    expect(attribute(root, "http.route")).toBe("/api/catalogs/{catalog}/preselect");
    expect(Number(attribute(root, "http.response.status_code"))).toBe(200);
    expect(attribute(root, "toolshed.catalog")).toBe("demo");
    const inTrace = spans.filter((span) => span.traceId === root.traceId);
    const named = (name: string) => inTrace.find((span) => span.name === name);
    const preselect = named("toolshed.preselect")!;
    expect(preselect.parentSpanId).toBe(root.spanId);
    expect([attribute(preselect, "toolshed.catalog"), attribute(preselect, "toolshed.model"), attribute(preselect, "toolshed.agent")]).toEqual([
      "demo",
      "gpt-5",
      "build",
    ]);
    expect(attribute(named("toolshed.selector")!, "toolshed.selector")).toBe("local");
    expect(named("toolshed.selector")!.parentSpanId).toBe(preselect.spanId);
    expect(attribute(named("toolshed.pipeline")!, "toolshed.agent")).toBe("build");
    expect(inTrace.some((span) => span.name.startsWith("db ") && attribute(span, "db.system.name") === "sqlite")).toBe(true);
    // Never the token, its hash, a header, or what the user said.
    const sent = received.map((request) => request.body).join("\n");
    for (const secret of [token, token.slice(4), "authorization", "Bearer", message]) expect(sent).not.toContain(secret);
  });

  it("leave the global provider, which Next.js traces through, a no-op: Next records nothing (a link's secret is in its target), and a request span under its span is a root", async () => {
    received.length = 0;
    const nextSpan = trace.getTracer("next.js").startSpan("GET /invite/[token]", { attributes: { "http.target": "/invite/link-secret-42?x=1" } });
    expect(nextSpan.isRecording()).toBe(false);
    await context.with(trace.setSpan(context.active(), nextSpan), () => inSpan("toolshed.under_next", {}, async () => undefined));
    nextSpan.end();
    await provider.forceFlush();
    const sent = received.map((request) => request.body).join("\n");
    expect(sent).not.toContain("link-secret-42");
    expect(sent).not.toContain("/invite/[token]");
    const spans: OtlpSpan[] = received.flatMap((request) =>
      JSON.parse(request.body).resourceSpans.flatMap((resource: { scopeSpans: { spans: OtlpSpan[] }[] }) =>
        resource.scopeSpans.flatMap((scope) => scope.spans),
      ),
    );
    const own = spans.find((span) => span.name === "toolshed.under_next")!;
    expect(own).toBeDefined();
    expect(own.parentSpanId ?? "").toBe("");
  });

  it("put the active trace id on log lines", () => {
    const writes = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    let ids: { traceId: string; spanId: string } | undefined;
    let lines: string[];
    try {
      inSpan("logging", {}, (span) => {
        ids = span.spanContext();
        log.info("Decision log: deleted 1 decision past retention.");
      });
    } finally {
      // Restoring the spy forgets its calls.
      lines = writes.mock.calls.map(([chunk]) => String(chunk));
      writes.mockRestore();
    }
    const line = lines.find((chunk) => chunk.includes("Decision log"))!;
    expect(JSON.parse(line)).toMatchObject({
      level: 30,
      msg: "Decision log: deleted 1 decision past retention.",
      trace_id: ids!.traceId,
      span_id: ids!.spanId,
    });
  });

  it("make a statement a span only when it took the configured time: a quick one is not, a slow or failed one is, under the active span", async () => {
    received.length = 0;
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const describe = (name: string) => () => ({ name, attributes: { "db.system.name": "sqlite" } });
    setToolshedTracing({ provider, statementMinMs: 20 });
    try {
      await inSpan("toolshed.statements", {}, async () => {
        await tracedStatement(describe("db quick"), async () => 1);
        await tracedStatement(describe("db slow"), () => sleep(30));
        await expect(tracedStatement(describe("db failed"), () => sleep(30).then(() => Promise.reject(new Error("SQLITE_BUSY"))))).rejects.toThrow();
      });
    } finally {
      setToolshedTracing({ provider, statementMinMs: 0 });
    }
    await provider.forceFlush();
    const spans: OtlpSpan[] = received.flatMap((request) =>
      JSON.parse(request.body).resourceSpans.flatMap((resource: { scopeSpans: { spans: OtlpSpan[] }[] }) =>
        resource.scopeSpans.flatMap((scope) => scope.spans),
      ),
    );
    const parent = spans.find((span) => span.name === "toolshed.statements")!;
    expect(spans.filter((span) => span.name.startsWith("db ")).map((span) => [span.name, span.parentSpanId])).toEqual([
      ["db slow", parent.spanId],
      ["db failed", parent.spanId],
    ]);
    const slow = spans.find((span) => span.name === "db slow") as OtlpSpan & { startTimeUnixNano: string; endTimeUnixNano: string };
    expect((Number(slow.endTimeUnixNano) - Number(slow.startTimeUnixNano)) / 1e6).toBeGreaterThanOrEqual(20);
  });

  it(`read ${STATEMENT_MIN_MS_VARIABLE}: 1 ms by default, 0 for every statement, and refuse what is not a duration`, () => {
    expect(statementMinMsFrom({})).toBe(1);
    expect(statementMinMsFrom({ [STATEMENT_MIN_MS_VARIABLE]: "0" })).toBe(0);
    expect(statementMinMsFrom({ [STATEMENT_MIN_MS_VARIABLE]: " 2.5 " })).toBe(2.5);
    for (const bad of ["-1", "soon", "Infinity"]) expect(() => statementMinMsFrom({ [STATEMENT_MIN_MS_VARIABLE]: bad })).toThrow(STATEMENT_MIN_MS_VARIABLE);
  });
});
