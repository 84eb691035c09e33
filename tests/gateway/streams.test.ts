import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { closeGatewaySessions } from "@/app/_services/mcp-gateway";
import { closeDb, migrateDatabase } from "@/db/client";
import { createCatalog } from "@/db/queries/catalogs";
import { createTestToken, useFreshDatabase } from "../api/helpers";
import { startToolshedHttpServer, type ToolshedHttpServer } from "../support/toolshed-http-server";

/**
 * The MCP gateway's event streams over real HTTP, with raw fetch: a GET stream answers at once,
 * and a server holding one stops on SIGTERM. SQLite only: the instance's database is a file.
 */

const PROTOCOL_VERSION = "2025-06-18";

/** Opens a gateway session of catalog "team" with a raw initialize POST; its id. */
async function initialize(base: string, token: string): Promise<string> {
  const response = await fetch(`${base}/api/catalogs/team/mcp?model=gpt-5&agent=build`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "streams-test", version: "1.0.0" } },
    }),
  });
  expect(response.status).toBe(200);
  expect(await response.text()).toContain('"serverInfo"');
  const sessionId = response.headers.get("mcp-session-id");
  if (!sessionId) throw new Error("no session id");
  return sessionId;
}

/** The session's GET stream, as an MCP client opens it. */
function openStream(base: string, token: string, sessionId: string, signal: AbortSignal): Promise<Response> {
  return fetch(`${base}/api/catalogs/team/mcp`, {
    headers: { authorization: `Bearer ${token}`, accept: "text/event-stream", "mcp-session-id": sessionId, "mcp-protocol-version": PROTOCOL_VERSION },
    signal,
  });
}

/** Resolves with `promise` or rejects once `ms` have passed. */
function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  return Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms))]);
}

describe("the gateway's GET stream", () => {
  let http: ToolshedHttpServer | undefined;
  const aborts: AbortController[] = [];
  afterEach(async () => {
    for (const abort of aborts.splice(0)) abort.abort();
    closeGatewaySessions();
    await http?.close();
  });

  it("answers its headers and a first chunk at once, not at the first keep-alive 15 s later", async () => {
    const db = await useFreshDatabase();
    await createCatalog(db, { name: "Team", id: "team" }, "tests");
    const token = await createTestToken(db, "read");
    http = await startToolshedHttpServer();
    const sessionId = await initialize(http.url, token);
    const abort = new AbortController();
    aborts.push(abort);
    const response = await within(1_000, openStream(http.url, token, sessionId, abort.signal), "the headers");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    // Next's server sends the headers with the first chunk: that chunk must not wait.
    const reader = response.body!.getReader();
    const first = await within(1_000, reader.read(), "the first chunk");
    expect(new TextDecoder().decode(first.value)).toBe(": stream open\n\n");
  });

  it("is let go when its client leaves: the session takes a new one (not 409, one stream per session)", async () => {
    const db = await useFreshDatabase();
    await createCatalog(db, { name: "Team", id: "team" }, "tests");
    const token = await createTestToken(db, "read");
    http = await startToolshedHttpServer();
    const sessionId = await initialize(http.url, token);
    const first = new AbortController();
    const response = await openStream(http.url, token, sessionId, first.signal);
    await response.body!.getReader().read();
    first.abort();
    const again = new AbortController();
    aborts.push(again);
    let status = 409;
    // The server learns that the client left once its socket closes: a moment.
    for (let attempt = 0; attempt < 50 && status === 409; attempt++) {
      const next = await openStream(http.url, token, sessionId, again.signal);
      status = next.status;
      if (status === 409) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe(200);
  });
});

describe("a server holding a gateway GET stream", () => {
  let child: ChildProcess | undefined;
  afterAll(() => {
    if (child?.exitCode === null) child.kill("SIGKILL");
  });

  it("exits within a few seconds of SIGTERM, the stream closed", { timeout: 150_000 }, async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "toolshed-shutdown-")), "toolshed.db");
    const db = migrateDatabase(file);
    await createCatalog(db, { name: "Team", id: "team" }, "tests");
    const token = await createTestToken(db, "read");
    await closeDb(db);
    const noSources = mkdtempSync(path.join(os.tmpdir(), "toolshed-no-sources-"));
    const started = spawn(process.execPath, ["--import", "tsx", "tests/support/toolshed-instance.ts"], {
      env: { ...process.env, TOOLSHED_DB: file, TOOLSHED_PLUGINS_DIR: noSources, TOOLSHED_SKILLS_DIR: noSources, TOOLSHED_AGENTS_DIR: noSources },
      stdio: ["pipe", "pipe", "inherit"],
    });
    child = started;
    const exited = new Promise<number | string | null>((resolve) => started.once("exit", (code, signal) => resolve(code ?? signal)));
    const base = await within(
      120_000,
      new Promise<string>((resolve, reject) => {
        let stdout = "";
        started.once("exit", (code) => reject(new Error(`the instance exited with ${code}`)));
        started.stdout?.on("data", (chunk: Buffer) => {
          stdout += chunk.toString();
          const url = /^listening (\S+)$/m.exec(stdout)?.[1];
          if (url) resolve(url);
        });
      }),
      "the instance's start",
    );
    const sessionId = await initialize(base, token);
    const response = await openStream(base, token, sessionId, new AbortController().signal);
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    await reader.read();

    const signalled = Date.now();
    started.kill("SIGTERM");
    // The stream ends (the server closed it) rather than breaking off.
    const rest = await within(5_000, reader.read(), "the end of the stream");
    expect(rest.done).toBe(true);
    // Well within the server's keep-alive timeout (5 s), which an idle connection would have held it up by.
    expect(await within(3_000, exited, "the exit")).toBe(143);
    expect(Date.now() - signalled).toBeLessThan(3_000);
  });
});

describe("the shutdown's signal handlers, without Next's", () => {
  it.each(["SIGTERM", "SIGINT"] as const)("end the process on %s as the signal would have", { timeout: 60_000 }, async (signal) => {
    const started = spawn(process.execPath, ["--import", "tsx", "tests/support/shutdown-alone.ts"], { stdio: ["ignore", "pipe", "inherit"] });
    const exited = new Promise<string | number | null>((resolve) => started.once("exit", (code, ended) => resolve(ended ?? code)));
    try {
      await within(
        50_000,
        new Promise<void>((resolve) => started.stdout?.on("data", (chunk: Buffer) => chunk.toString().includes("ready") && resolve())),
        "the process's start",
      );
      started.kill(signal);
      expect(await within(3_000, exited, "the exit")).toBe(signal);
    } finally {
      // One that did not end is ended here, not left behind.
      if (started.exitCode === null && started.signalCode === null) started.kill("SIGKILL");
    }
  });
});
