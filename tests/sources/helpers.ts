import { afterAll, beforeAll } from "vitest";
import { McpSourceError } from "@/lib/sources/mcp";

type Vars = Record<string, string | undefined>;

function apply(vars: Vars): Vars {
  const saved: Vars = {};
  for (const [name, value] of Object.entries(vars)) {
    saved[name] = process.env[name];
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  return saved;
}

/**
 * Sets environment variables for every test of a file (e.g. an MCP stdio allowlist holding the
 * test servers, or TOOLSHED_MCP_ALLOW_PRIVATE=1 for servers on 127.0.0.1) and restores them
 * afterwards: the product's defaults stay strict.
 */
export function useEnv(vars: Vars): void {
  let saved: Vars = {};
  beforeAll(() => {
    saved = apply(vars);
  });
  afterAll(() => {
    apply(saved);
  });
}

/** Runs `work` with these variables set, restoring them afterwards. */
export async function withEnv<T>(vars: Vars, work: () => Promise<T> | T): Promise<T> {
  const saved = apply(vars);
  try {
    return await work();
  } finally {
    apply(saved);
  }
}

/** The McpSourceError a piece of MCP work fails with; anything else (or success) fails the test. */
export async function failure(work: Promise<unknown>): Promise<McpSourceError> {
  const error = await work.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (error instanceof McpSourceError) return error;
  throw new Error(`expected an McpSourceError, got ${String(error)}`);
}
