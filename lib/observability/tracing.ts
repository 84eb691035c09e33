import { type Attributes, INVALID_SPAN_CONTEXT, type Span, SpanKind, SpanStatusCode, type TracerProvider, trace } from "@opentelemetry/api";

/**
 * Spans through @opentelemetry/api: without an SDK (OTEL_EXPORTER_OTLP_ENDPOINT unset, see
 * otel.ts) every call here is the API's no-op. Attributes name what was asked (catalog, model,
 * agent, tool, route), never what was sent: no tokens, headers, arguments or environment.
 *
 * The SDK's provider is Toolshed's alone, not the API's global one: Next.js traces through the
 * global provider, and once one is registered it takes its traced path on every request (a hot
 * route's p50 went up by 20 to 60 % at 10,000 tools). It is kept on globalThis because the
 * instrumentation hook and the routes are bundled apart, each with its own copy of this module.
 */
const TRACING = Symbol.for("toolshed.tracing");
/** What `work` is given when nothing traces: a span that records nothing, as the API's no-op tracer gives. */
const UNTRACED = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

interface Tracing {
  provider: TracerProvider;
  /** Statements that took less are no span of their own (their transaction's span covers them). */
  statementMinMs: number;
}

const shared = globalThis as { [TRACING]?: Tracing };

export function setToolshedTracing(tracing: Tracing | undefined): void {
  shared[TRACING] = tracing;
}

/** Marks a span failed by the error's kind only: a message may quote an upstream answer or a secret. */
function failed(span: Span, error: unknown): void {
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : "error" });
}

/** Runs `work` in a span named `name`, the active one for what it calls; it ends when `work` (or its promise) does. */
export function inSpan<T>(name: string, attributes: Attributes, work: (span: Span) => T, kind: SpanKind = SpanKind.INTERNAL): T {
  const provider = shared[TRACING]?.provider;
  // Tracing off: the work runs as it would untraced, with no span or context made for it.
  if (!provider) return work(UNTRACED);
  return provider.getTracer("toolshed").startActiveSpan(name, { attributes, kind }, (span) => {
    // Not sampled: the work runs as it would untraced, without a promise more.
    if (!span.isRecording()) return work(span);
    let result: T;
    try {
      result = work(span);
    } catch (error) {
      failed(span, error);
      span.end();
      throw error;
    }
    if (!(result instanceof Promise)) {
      span.end();
      return result;
    }
    return result.then(
      (value) => {
        span.end();
        return value;
      },
      (error: unknown) => {
        failed(span, error);
        span.end();
        throw error;
      },
    ) as T;
  });
}

/**
 * Runs a database statement, and records it as a span (a child of the active one) when it took at
 * least the configured time (TOOLSHED_TRACE_STATEMENT_MIN_MS): a trace shows the slow statements,
 * not the dozens of tens-of-microseconds lookups a request makes, each of which would cost more to
 * trace than to run. Its name and attributes come from `describe`, called only then.
 */
export function tracedStatement<T>(describe: () => { name: string; attributes: Attributes }, run: () => Promise<T>): Promise<T> {
  const tracing = shared[TRACING];
  // Tracing off: the statement's own promise, without another around it.
  return tracing ? timedStatement(tracing, describe, run) : run();
}

async function timedStatement<T>(tracing: Tracing, describe: () => { name: string; attributes: Attributes }, run: () => Promise<T>): Promise<T> {
  const startTime = performance.timeOrigin + performance.now();
  let failure: unknown;
  try {
    return await run();
  } catch (error) {
    failure = error ?? "error";
    throw error;
  } finally {
    const endTime = performance.timeOrigin + performance.now();
    if (endTime - startTime >= tracing.statementMinMs) {
      const { name, attributes } = describe();
      const span = tracing.provider.getTracer("toolshed").startSpan(name, { attributes, startTime });
      if (failure !== undefined) failed(span, failure);
      span.end(endTime);
    }
  }
}

/** The active span's trace and span ids, for log lines; none outside a recorded span. */
export function activeTraceIds(): { trace_id: string; span_id: string } | undefined {
  const span = trace.getActiveSpan();
  if (!span?.isRecording()) return undefined;
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}
