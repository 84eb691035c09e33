import "server-only";
import { type Context, context, trace } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { detectResources, envDetector, resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, type ReadableSpan, type Span, type SpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { ATTR_SERVICE_NAME } from "@opentelemetry/semantic-conventions";
import { AsyncLocalStorageContextManager } from "./context-manager";

type Env = Record<string, string | undefined>;

/** Whether the standard variables ask for traces: an OTLP endpoint, and the SDK not disabled. */
export function tracingConfigured(env: Env = process.env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return false;
  if (env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === "none") return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}

/** Attributes that hold a request's raw target: its query, or a path such as `/invite/<token>`, can be a secret. */
const RAW_TARGET_ATTRIBUTES = ["http.target", "http.url", "url.full", "url.path", "url.query"];

/**
 * Passes spans on without their raw request targets. Next.js's own spans (it traces through the
 * same API once a provider is registered) carry `http.target`, which for a setup or invitation link
 * holds its secret; Toolshed's spans name the route pattern instead (`http.route`).
 */
class WithoutRawTargets implements SpanProcessor {
  constructor(private readonly next: SpanProcessor) {}

  onStart(span: Span, parentContext: Context): void {
    this.next.onStart(span, parentContext);
  }

  onEnd(span: ReadableSpan): void {
    const attributes = span.attributes as Record<string, unknown>;
    for (const key of RAW_TARGET_ATTRIBUTES) delete attributes[key];
    this.next.onEnd(span);
  }

  forceFlush(): Promise<void> {
    return this.next.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.next.shutdown();
  }
}

/**
 * Starts exporting spans over OTLP/HTTP (JSON) when the standard OTEL_* variables ask for it, and
 * registers the provider for @opentelemetry/api; otherwise starts nothing and every span stays a
 * no-op. The exporter reads the endpoint, headers and timeout from those variables itself; the
 * service is named `toolshed` unless OTEL_SERVICE_NAME or OTEL_RESOURCE_ATTRIBUTES say otherwise.
 */
export function startTracing(env: Env = process.env): TracerProvider | undefined {
  if (!tracingConfigured(env)) return undefined;
  const resource = resourceFromAttributes({ [ATTR_SERVICE_NAME]: "toolshed" }).merge(detectResources({ detectors: [envDetector] }));
  const provider = new TracerProvider({ resource, spanProcessors: [new WithoutRawTargets(new BatchSpanProcessor({ exporter: new OTLPTraceExporter() }))] });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager());
  trace.setGlobalTracerProvider(provider);
  return provider;
}
