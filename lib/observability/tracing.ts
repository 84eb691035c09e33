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
const PROVIDER = Symbol.for("toolshed.tracer-provider");
/** What `work` is given when nothing traces: a span that records nothing, as the API's no-op tracer gives. */
const UNTRACED = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

export function setToolshedTracerProvider(provider: TracerProvider | undefined): void {
  (globalThis as { [PROVIDER]?: TracerProvider })[PROVIDER] = provider;
}

/** Marks a span failed by the error's kind only: a message may quote an upstream answer or a secret. */
function failed(span: Span, error: unknown): void {
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : "error" });
}

/** Runs `work` in a span named `name`, the active one for what it calls; it ends when `work` (or its promise) does. */
export function inSpan<T>(name: string, attributes: Attributes, work: (span: Span) => T, kind: SpanKind = SpanKind.INTERNAL): T {
  const provider = (globalThis as { [PROVIDER]?: TracerProvider })[PROVIDER];
  // Tracing off: the work runs as it would untraced, with no span or context made for it (every statement is an inSpan).
  if (!provider) return work(UNTRACED);
  return provider.getTracer("toolshed").startActiveSpan(name, { attributes, kind }, (span) => {
    // Nothing records it (no SDK, or not sampled): the work runs as it would untraced, without a promise more.
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

/** The active span's trace and span ids, for log lines; none outside a recorded span. */
export function activeTraceIds(): { trace_id: string; span_id: string } | undefined {
  const span = trace.getActiveSpan();
  if (!span?.isRecording()) return undefined;
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}
