import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { readTurnView } from "@/app/_services/selection";
import { disconnectMcpServer, MCP_SYNC_LEASE, syncMcpServer, syncMcpServersPeriodically } from "@/app/_services/sources";
import { catalogState } from "@/app/_services/catalog-states";
import * as serverRoute from "@/app/api/catalogs/[catalog]/mcp-servers/[name]/route";
import * as serversRoute from "@/app/api/catalogs/[catalog]/mcp-servers/route";
import * as catalogRoute from "@/app/api/catalogs/[catalog]/route";
import * as catalogsRoute from "@/app/api/catalogs/route";
import type { Db } from "@/db/client";
import { listAudit } from "@/db/queries/audit";
import { deleteCatalog } from "@/db/queries/catalogs";
import { releaseLease, takeLease } from "@/db/queries/leases";
import { getMcpServer } from "@/db/queries/mcp-servers";
import { listTools } from "@/db/queries/tools";
import { rejectionReason } from "@/lib/selection/verify";
import { asInstanceAdmin, jsonRequest, params, useFreshDatabase } from "../api/helpers";
import { processMarker, processMentioning } from "../support/processes";
import { useEnv } from "./helpers";

const DEMO_SERVER = path.resolve("mcp-servers/demo-server.mjs");
useEnv({ TOOLSHED_MCP_STDIO_COMMANDS: `${process.execPath} ${DEMO_SERVER}` });

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Polls until the process is gone; fails after a bounded number of attempts (a closed stdio server gets SIGTERM, then SIGKILL after a grace period). */
async function processEnds(pid: number): Promise<void> {
  for (let attempt = 0; attempt < 150; attempt++) {
    if (!isAlive(pid)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`process ${pid} is still running`);
}

/** Adds a demo stdio server through the API (which syncs it, starting its process) and returns the process id. */
async function addDemoServer(catalog: string, name: string): Promise<number> {
  const marker = processMarker(`${catalog}-${name}`);
  const body = { name, transport: "stdio", command: process.execPath, args: [DEMO_SERVER, marker] };
  const response = await serversRoute.POST(jsonRequest("POST", body, await asInstanceAdmin()), params({ catalog }));
  expect(response.status).toBe(201);
  expect((await response.json()).server).toMatchObject({ status: "connected" });
  const pid = processMentioning(marker);
  expect(isAlive(pid)).toBe(true);
  return pid;
}

describe("stdio MCP processes end with what configures them", () => {
  let db: Db;
  beforeEach(async () => {
    db = await useFreshDatabase();
    for (const name of ["Team", "Team 2"]) expect((await catalogsRoute.POST(jsonRequest("POST", { name }))).status).toBe(201);
  });
  afterEach(async () => {
    for (const [catalog, name] of [
      ["team", "notes"],
      ["team", "other"],
      ["team-2", "notes"],
    ])
      await disconnectMcpServer(catalog, name);
  });

  it("deleting a catalog stops every one of its servers' processes, and no other catalog's", async () => {
    const notes = await addDemoServer("team", "notes");
    const other = await addDemoServer("team", "other");
    const neighbour = await addDemoServer("team-2", "notes");

    expect((await catalogRoute.DELETE(jsonRequest("DELETE"), params({ catalog: "team" }))).status).toBe(204);
    await processEnds(notes);
    await processEnds(other);
    expect(isAlive(neighbour)).toBe(true);
  });

  it("a catalog deleted by other means (the query function, another process): the next periodic round stops its processes", async () => {
    const pid = await addDemoServer("team", "notes");
    const neighbour = await addDemoServer("team-2", "notes");
    await deleteCatalog(db, "team");
    expect(await syncMcpServersPeriodically(db)).toEqual({ synced: ["team-2/notes"], skipped: [] });
    await processEnds(pid);
    expect(isAlive(neighbour)).toBe(true);
  });

  it("a server added while a periodic round runs keeps its process: the round closes only connections that were orphans before it read the servers", async () => {
    const marker = processMarker("notes");
    const body = { name: "notes", transport: "stdio", command: process.execPath, args: [DEMO_SERVER, marker] };
    const adding = serversRoute.POST(jsonRequest("POST", body, await asInstanceAdmin()), params({ catalog: "team" }));
    // Its process runs, and it is not stored yet: the round's read of the servers leaves it out.
    const pid = await vi.waitFor(() => processMentioning(marker), { interval: 2, timeout: 10_000 });
    await syncMcpServersPeriodically(db);

    const response = await adding;
    expect(response.status).toBe(201);
    expect((await response.json()).server).toMatchObject({ status: "connected" });
    expect(isAlive(pid)).toBe(true);
  });

  it("deleting a server stops its process", async () => {
    const pid = await addDemoServer("team", "notes");
    expect((await serverRoute.DELETE(jsonRequest("DELETE"), params({ catalog: "team", name: "notes" }))).status).toBe(204);
    await processEnds(pid);
  });
});

describe("a server this instance cannot reach is its own knowledge, not the registry's", () => {
  let db: Db;
  beforeEach(async () => {
    db = await useFreshDatabase();
    expect((await catalogsRoute.POST(jsonRequest("POST", { name: "Team" }))).status).toBe(201);
  });
  afterEach(async () => {
    for (const name of ["notes", "other"]) await disconnectMcpServer("team", name);
  });

  const toolOf = async (name: string) => (await catalogState(db, "team")).tools.find((tool) => tool.name === name);
  /** Kills the server's process and waits until this instance has taken its tools out and recorded its health (two writes, not one). */
  async function killServer(pid: number): Promise<void> {
    process.kill(pid, "SIGKILL");
    await vi.waitFor(
      async () => {
        expect(await toolOf("notes__notes_search")).toMatchObject({ unavailableHere: true });
        expect(await getMcpServer(db, "team", "notes")).toMatchObject({ status: "error" });
      },
      { timeout: 10_000 },
    );
  }

  it("leaves its tools out of this instance's answers, keeps the registry and its revision, and a sync brings them back", async () => {
    const pid = await addDemoServer("team", "notes");
    const shared = await catalogState(db, "team");
    const audit = await listAudit(db, "team");

    await killServer(pid);
    const here = await catalogState(db, "team");
    expect(here.revision).toBe(shared.revision);
    expect(await catalogState(db, "team")).toBe(here);
    expect(here.tools.find((tool) => tool.name === "notes__notes_search")).toMatchObject({ registered: false, unavailableHere: true });
    expect(shared.tools.find((tool) => tool.name === "notes__notes_search")).toMatchObject({ registered: true });
    expect((await listTools(db, "team")).filter((tool) => tool.sourceRef === "notes").every((tool) => tool.registered)).toBe(true);
    expect(await listAudit(db, "team")).toEqual(audit);
    // Its health is still shown (the Sources page), as information.
    expect(await getMcpServer(db, "team", "notes")).toMatchObject({ status: "error", lastError: expect.stringMatching(/^Disconnected/) });

    const { list, view } = await readTurnView(db, "team", { model: "gpt-5", agent: "build" });
    expect(list.trace[0].removed).toContainEqual({ name: "notes__notes_search", reason: "not registered (mcp source unavailable on this instance)" });
    expect(rejectionReason("notes__notes_search", view)).toBe("not registered: its source is unavailable");

    expect((await syncMcpServer(db, "team", "notes")).error).toBeUndefined();
    // Nothing changed in the registry: the shared state is answered again.
    expect(await catalogState(db, "team")).toBe(shared);
  });

  it("periodic rounds: the holder of the sync's lease syncs every server, another instance only those it cannot reach", async () => {
    const pid = await addDemoServer("team", "notes");
    await addDemoServer("team", "other");
    await killServer(pid);

    expect(await takeLease(db, MCP_SYNC_LEASE, "another-instance", 60_000)).toBe(true);
    expect(await syncMcpServersPeriodically(db)).toEqual({ synced: ["team/notes"], skipped: [] });
    expect((await toolOf("notes__notes_search"))?.unavailableHere).toBeUndefined();
    expect(await syncMcpServersPeriodically(db)).toEqual({ synced: [], skipped: [] });

    await releaseLease(db, MCP_SYNC_LEASE, "another-instance");
    expect((await syncMcpServersPeriodically(db)).synced.sort()).toEqual(["team/notes", "team/other"]);
    // This instance renews it round after round; the other cannot take it meanwhile.
    expect(await takeLease(db, MCP_SYNC_LEASE, "another-instance", 60_000)).toBe(false);
  });
});
