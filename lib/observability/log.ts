import "server-only";
import pino from "pino";
import { activeTraceIds } from "./tracing";

const shared = globalThis as unknown as { toolshedLog?: pino.Logger };

/**
 * The server's own log: one JSON object a line (pino: `level`, `time`, `msg`, `trace_id` and
 * `span_id` inside a traced request, `err` with an error's type, message and stack). Info goes to
 * standard output and warnings and errors to standard error, where console.log and console.error
 * wrote them. One logger per process (Next bundles instrumentation and routes apart).
 */
function createLog(): pino.Logger {
  return pino(
    {
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      mixin: () => activeTraceIds() ?? {},
    },
    pino.multistream(
      [
        { level: "trace", stream: process.stdout },
        { level: "warn", stream: process.stderr },
      ],
      { dedupe: true },
    ),
  );
}

shared.toolshedLog ??= createLog();
export const log: pino.Logger = shared.toolshedLog;
