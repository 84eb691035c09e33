import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { McpConnections, type McpServerConfig, type McpStdioConfig } from "@/lib/sources/mcp";
import { processesMentioning, processMarker, processMentioning } from "../support/processes";
import { useEnv } from "./helpers";

const DEMO_SERVER = path.resolve("mcp-servers/demo-server.mjs");

useEnv({ TOOLSHED_MCP_STDIO_COMMANDS: `${process.execPath} ${DEMO_SERVER} env=DEMO_MCP_HANG,DEMO_MCP_TOOLS` });

async function waitFor(check: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A demo server whose command line carries a unique marker, so that its processes can be counted. */
function markedDemo(label: string, env?: Record<string, string>): { marker: string; config: McpServerConfig } {
  const marker = processMarker(label);
  return { marker, config: { name: "notes", transport: "stdio", command: process.execPath, args: [DEMO_SERVER, marker], ...(env ? { env } : {}) } };
}

/** Until no process of the marked server is left (a closed stdio server gets SIGTERM, then SIGKILL after a grace period). */
const noProcessLeft = (marker: string) => expect.poll(() => processesMentioning(marker), { timeout: 10_000, interval: 50 }).toEqual([]);

describe("McpConnections", () => {
  let connections: McpConnections | undefined;
  afterEach(async () => {
    await connections?.disconnectAll();
  });

  it("keeps one live stdio process, reports its death at once, and reconnects on the next use", async () => {
    const lost: string[] = [];
    connections = new McpConnections((key, reason) => lost.push(`${key}: ${reason}`));
    const { marker, config } = markedDemo("live");

    const first = await connections.list("demo/notes", config);
    expect(first.tools.map((tool) => tool.name)).toContain("notes__notes_search");
    const pid = processMentioning(marker);
    await connections.list("demo/notes", config);
    expect(processMentioning(marker)).toBe(pid);

    const result = await connections.call("demo/notes", config, "weather_forecast", { city: "Lyon" });
    expect(result.isError).toBe(false);

    process.kill(pid, "SIGKILL");
    await waitFor(() => lost.length === 1);
    expect(lost[0]).toMatch(/^demo\/notes: Disconnected: the server process exited/);
    expect(connections.isConnected("demo/notes")).toBe(false);

    const again = await connections.list("demo/notes", config);
    expect(again.tools.length).toBe(first.tools.length);
    expect(processMentioning(marker)).not.toBe(pid);
  });

  it("does not report a connection closed on purpose, and gives up on a hanging server at its deadline and ends it", async () => {
    const lost: string[] = [];
    const hanging = markedDemo("hang", { DEMO_MCP_HANG: "1" });
    connections = new McpConnections((key) => lost.push(key), { connectTimeoutMs: 1_500 });
    await connections.list("a/notes", { name: "notes", transport: "stdio", command: process.execPath, args: [DEMO_SERVER] });
    await connections.disconnect("a/notes");
    await expect(connections.list("a/hang", hanging.config)).rejects.toMatchObject({
      failure: "timeout",
      message: expect.stringMatching(/did not complete the MCP handshake within 1500 ms/),
    });
    expect(lost).toEqual([]);
    expect(connections.isConnected("a/hang")).toBe(false);
    // The hanging process does not outlive the failure.
    await noProcessLeft(hanging.marker);
  });

  it("starts one process for concurrent first uses of a server, and disconnectAll leaves none", async () => {
    const { marker, config } = markedDemo("concurrent");
    connections = new McpConnections(() => undefined);

    const listings = await Promise.all([
      connections.list("demo/notes", config),
      connections.list("demo/notes", config),
      connections.call("demo/notes", config, "weather_forecast", { city: "Lyon" }),
    ]);
    expect(listings[0].tools.length).toBe(5);
    expect(listings[1].tools).toEqual(listings[0].tools);
    expect(processesMentioning(marker)).toHaveLength(1);

    await connections.disconnectAll();
    expect(connections.isConnected("demo/notes")).toBe(false);
    await noProcessLeft(marker);
  });

  it("leaves no process when disconnectAll comes while the connection is still being opened", async () => {
    const { marker, config } = markedDemo("opening");
    connections = new McpConnections(() => undefined);

    const uses = [connections.list("demo/notes", config), connections.list("demo/notes", config)].map((use) => use.catch((error: unknown) => error));
    await connections.disconnectAll();
    // Both uses shared the one attempt, which was closed as soon as it was open.
    for (const outcome of await Promise.all(uses))
      expect(outcome).toMatchObject({ failure: "connection", message: expect.stringMatching(/closed while it was being opened/) });
    expect(connections.isConnected("demo/notes")).toBe(false);
    await noProcessLeft(marker);
  });

  it("replaces the connection once when the configuration changes while it is being opened", async () => {
    const { marker, config: base } = markedDemo("changed");
    connections = new McpConnections(() => undefined);
    const changed: McpServerConfig = { ...(base as McpStdioConfig), env: { DEMO_MCP_TOOLS: "notes_get" } };

    const [before, after, afterAgain] = await Promise.all([
      connections.list("demo/notes", base),
      connections.list("demo/notes", changed),
      connections.list("demo/notes", changed),
    ]);
    expect(before.tools.length).toBe(5);
    expect(after.tools.map((tool) => tool.mcpName)).toEqual(["notes_get"]);
    expect(afterAgain.tools).toEqual(after.tools);
    await expect.poll(() => processesMentioning(marker), { timeout: 10_000, interval: 50 }).toHaveLength(1);
  });
});
