import "server-only";
import { context } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { detectResources, envDetector, resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { ATTR_SERVICE_NAME } from "@opentelemetry/semantic-conventions";
import { AsyncLocalStorageContextManager } from "./context-manager";
import { setToolshedTracerProvider } from "./tracing";

type Env = Record<string, string | undefined>;

/** Whether the standard variables ask for traces: an OTLP endpoint, and the SDK not disabled. */
export function tracingConfigured(env: Env = process.env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return false;
  if (env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === "none") return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}

/**
 * Starts exporting Toolshed's spans over OTLP/HTTP (JSON) when the standard OTEL_* variables ask
 * for it, with AsyncLocalStorage carrying the active span across awaits; otherwise starts nothing
 * and every span stays a no-op. Next.js's own spans are not recorded (see tracing.ts). The
 * exporter reads the endpoint, headers and timeout from those variables itself; the service is
 * named `toolshed` unless OTEL_SERVICE_NAME or OTEL_RESOURCE_ATTRIBUTES say otherwise.
 */
export function startTracing(env: Env = process.env): TracerProvider | undefined {
  if (!tracingConfigured(env)) return undefined;
  const resource = resourceFromAttributes({ [ATTR_SERVICE_NAME]: "toolshed" }).merge(detectResources({ detectors: [envDetector] }));
  const provider = new TracerProvider({ resource, spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter() })] });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager());
  setToolshedTracerProvider(provider);
  return provider;
}
