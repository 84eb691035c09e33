import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { McpConnections } from "@/lib/sources/mcp";
import { useEnv } from "./helpers";

const DEMO_SERVER = path.resolve("mcp-servers/demo-server.mjs");

useEnv({ TOOLSHED_MCP_STDIO_COMMANDS: `${process.execPath} ${DEMO_SERVER}` });

async function waitFor(check: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe("McpConnections", () => {
  let connections: McpConnections | undefined;
  afterEach(async () => {
    await connections?.disconnectAll();
  });

  it("keeps one live stdio process, reports its death at once, and reconnects on the next use", async () => {
    const pidFile = path.join(mkdtempSync(path.join(os.tmpdir(), "mcp-")), "pid");
    const lost: string[] = [];
    connections = new McpConnections((key, reason) => lost.push(`${key}: ${reason}`));
    const config = { name: "notes", transport: "stdio" as const, command: process.execPath, args: [DEMO_SERVER], env: { DEMO_MCP_PID_FILE: pidFile } };

    const first = await connections.list("demo/notes", config);
    expect(first.tools.map((tool) => tool.name)).toContain("notes__notes_search");
    const pid = Number(readFileSync(pidFile, "utf8"));
    await connections.list("demo/notes", config);
    expect(Number(readFileSync(pidFile, "utf8"))).toBe(pid);

    const result = await connections.call("demo/notes", config, "weather_forecast", { city: "Lyon" });
    expect(result.isError).toBe(false);

    process.kill(pid, "SIGKILL");
    await waitFor(() => lost.length === 1);
    expect(lost[0]).toMatch(/^demo\/notes: Disconnected: the server process exited/);
    expect(connections.isConnected("demo/notes")).toBe(false);

    const again = await connections.list("demo/notes", config);
    expect(again.tools.length).toBe(first.tools.length);
    expect(Number(readFileSync(pidFile, "utf8"))).not.toBe(pid);
  });

  it("does not report a connection closed on purpose, and fails a hanging server within the limit", async () => {
    const lost: string[] = [];
    connections = new McpConnections((key) => lost.push(key), { connectTimeoutMs: 1_500 });
    await connections.list("a/notes", { name: "notes", transport: "stdio", command: process.execPath, args: [DEMO_SERVER] });
    await connections.disconnect("a/notes");
    const started = Date.now();
    await expect(
      connections.list("a/hang", { name: "hang", transport: "stdio", command: process.execPath, args: [DEMO_SERVER], env: { DEMO_MCP_HANG: "1" } }),
    ).rejects.toMatchObject({ failure: "timeout" });
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(lost).toEqual([]);
    expect(connections.isConnected("a/hang")).toBe(false);
  });
});
