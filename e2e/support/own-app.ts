import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/** An app of a spec's own, on a fresh database, whose log the spec reads (e.g. for the setup link). */
export interface OwnApp {
  url: string;
  /** Resolves with the first match of `pattern` in the server's standard output. */
  waitForLog(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  stop(): void;
}

export async function startOwnApp(port: number, env: Record<string, string> = {}): Promise<OwnApp> {
  const url = `http://127.0.0.1:${port}`;
  const database = path.join(mkdtempSync(path.join(os.tmpdir(), "toolshed-e2e-own-")), "toolshed.db");
  const appEnv = { ...process.env, TOOLSHED_DB: database, TOOLSHED_SEED: "1", TOOLSHED_URL: url, ...env };
  // The server refuses a database that has not been migrated: the same step as Playwright's web servers.
  execFileSync("npm", ["run", "--silent", "db:migrate"], { env: appEnv, stdio: "ignore" });
  const child: ChildProcess = spawn("./node_modules/.bin/next", ["start", "-p", String(port)], {
    env: appEnv,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let log = "";
  child.stdout?.on("data", (chunk: Buffer) => (log += chunk.toString("utf8")));
  child.stderr?.on("data", (chunk: Buffer) => (log += chunk.toString("utf8")));
  const waitForLog = (pattern: RegExp, timeoutMs = 30_000) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const started = Date.now();
      const poll = setInterval(() => {
        const match = log.match(pattern);
        if (match) {
          clearInterval(poll);
          resolve(match);
        } else if (Date.now() - started > timeoutMs || child.exitCode !== null) {
          clearInterval(poll);
          reject(new Error(`The app did not log ${pattern} (exit ${child.exitCode}). Its log:\n${log}`));
        }
      }, 100);
    });
  await waitForLog(/Ready in|Local:/);
  return {
    url,
    waitForLog,
    stop: () => {
      // The whole process group: `next start` runs the server in a child of its own.
      if (child.pid) process.kill(-child.pid, "SIGTERM");
    },
  };
}
