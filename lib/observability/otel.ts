import "server-only";
import { context, trace } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { detectResources, envDetector, resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, type Sampler, SamplingDecision, TracerProvider } from "@opentelemetry/sdk-trace";
import { ATTR_SERVICE_NAME } from "@opentelemetry/semantic-conventions";
import { AsyncLocalStorageContextManager } from "./context-manager";

type Env = Record<string, string | undefined>;

/** Whether the standard variables ask for traces: an OTLP endpoint, and the SDK not disabled. */
export function tracingConfigured(env: Env = process.env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return false;
  if (env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === "none") return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}

/**
 * Records Toolshed's spans and none of Next.js's own. Next traces through the same API once a
 * provider is registered, about eight spans per request (routing, module loading, the response),
 * which doubled the spans of a hot route and its time with them; and they carry the raw request
 * target (`http.target`), which for a setup or invitation link holds its secret. Toolshed's
 * request span is each trace's root instead (see inSpan).
 */
const withoutNextSpans: Sampler = {
  shouldSample: (_context, _traceId, _name, _kind, attributes) => ({
    decision: attributes["next.span_category"] === "nextjs" ? SamplingDecision.NOT_RECORD : SamplingDecision.RECORD_AND_SAMPLED,
  }),
  toString: () => "WithoutNextSpans",
};

/**
 * Starts exporting spans over OTLP/HTTP (JSON) when the standard OTEL_* variables ask for it, and
 * registers the provider for @opentelemetry/api; otherwise starts nothing and every span stays a
 * no-op. The exporter reads the endpoint, headers and timeout from those variables itself; the
 * service is named `toolshed` unless OTEL_SERVICE_NAME or OTEL_RESOURCE_ATTRIBUTES say otherwise.
 */
export function startTracing(env: Env = process.env): TracerProvider | undefined {
  if (!tracingConfigured(env)) return undefined;
  const resource = resourceFromAttributes({ [ATTR_SERVICE_NAME]: "toolshed" }).merge(detectResources({ detectors: [envDetector] }));
  const provider = new TracerProvider({ resource, sampler: withoutNextSpans, spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter() })] });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager());
  trace.setGlobalTracerProvider(provider);
  return provider;
}
