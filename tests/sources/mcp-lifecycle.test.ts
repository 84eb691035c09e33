import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { disconnectMcpServer, syncMcpServersPeriodically } from "@/app/_services/sources";
import * as serverRoute from "@/app/api/catalogs/[catalog]/mcp-servers/[name]/route";
import * as serversRoute from "@/app/api/catalogs/[catalog]/mcp-servers/route";
import * as catalogRoute from "@/app/api/catalogs/[catalog]/route";
import * as catalogsRoute from "@/app/api/catalogs/route";
import type { Db } from "@/db/client";
import { deleteCatalog } from "@/db/queries/catalogs";
import { jsonRequest, params, useFreshDatabase } from "../api/helpers";
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
  const pidFile = path.join(mkdtempSync(path.join(os.tmpdir(), "mcp-lifecycle-")), "pid");
  const body = { name, transport: "stdio", command: process.execPath, args: [DEMO_SERVER], env: { DEMO_MCP_PID_FILE: pidFile } };
  const response = await serversRoute.POST(jsonRequest("POST", body), params({ catalog }));
  expect(response.status).toBe(201);
  expect((await response.json()).server).toMatchObject({ status: "connected" });
  const pid = Number(readFileSync(pidFile, "utf8"));
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

  it("deleting a server stops its process", async () => {
    const pid = await addDemoServer("team", "notes");
    expect((await serverRoute.DELETE(jsonRequest("DELETE"), params({ catalog: "team", name: "notes" }))).status).toBe(204);
    await processEnds(pid);
  });
});
