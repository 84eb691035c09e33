import "server-only";
import { context } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { detectResources, envDetector, resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { ATTR_SERVICE_NAME } from "@opentelemetry/semantic-conventions";
import { AsyncLocalStorageContextManager } from "./context-manager";
import { setToolshedTracing } from "./tracing";

type Env = Record<string, string | undefined>;

/** Whether the standard variables ask for traces: an OTLP endpoint, and the SDK not disabled. */
export function tracingConfigured(env: Env = process.env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return false;
  if (env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === "none") return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}

export const STATEMENT_MIN_MS_VARIABLE = "TOOLSHED_TRACE_STATEMENT_MIN_MS";
const DEFAULT_STATEMENT_MIN_MS = 1;

/** How long a database statement must take to be a span of its own: milliseconds, 0 for every statement. */
export function statementMinMsFrom(env: Env = process.env): number {
  const text = env[STATEMENT_MIN_MS_VARIABLE]?.trim();
  if (!text) return DEFAULT_STATEMENT_MIN_MS;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0) {
    throw new Error(`${STATEMENT_MIN_MS_VARIABLE} must be a number of milliseconds, 0 or more (0 makes every statement a span); it is "${text}".`);
  }
  return value;
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
  setToolshedTracing({ provider, statementMinMs: statementMinMsFrom(env) });
  return provider;
}
