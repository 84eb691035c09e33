import { vi } from "vitest";

/** A line of the server's JSON log (lib/observability/log.ts). */
export interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

/** pino's number for warnings: lines at or above it go to standard error. */
export const WARN_LEVEL = 40;

/**
 * Captures the server's log lines, written to standard output and error from now until `restore`
 * (and keeps them out of the test's output): each parsed, in order.
 */
export function captureLog(): { lines: LogLine[]; restore: () => void } {
  const lines: LogLine[] = [];
  const spies = [process.stdout, process.stderr].map((stream) =>
    vi.spyOn(stream, "write").mockImplementation((chunk: string | Uint8Array) => {
      for (const text of String(chunk).split("\n")) if (text.startsWith('{"level":')) lines.push(JSON.parse(text) as LogLine);
      return true;
    }),
  );
  return {
    lines,
    restore: () => {
      for (const spy of spies) spy.mockRestore();
    },
  };
}
