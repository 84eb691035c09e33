import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { migrateDatabase } from "@/db/client";
import { listAudit } from "@/db/queries/audit";
import { createCatalog, getCatalog } from "@/db/queries/catalogs";
import { createConversation, getConversation } from "@/db/queries/conversations";
import { countDecisions } from "../support/decisions";
import { createCustomTool, listTools } from "@/db/queries/tools";
import { SERVER_TSX_ARGS } from "../support/server-process";

const WRITERS = 3;
const ITERATIONS = 150;

interface Writer {
  ready: Promise<void>;
  done: Promise<{ operations: number; errors: string[] }>;
  go(): void;
}

/** A writer process (tests/db/support/concurrent-writer.ts) on the database file. */
function startWriter(file: string, writer: number, conversationId: string): Writer {
  const child = spawn(
    process.execPath,
    [...SERVER_TSX_ARGS, "tests/db/support/concurrent-writer.ts", file, String(writer), String(ITERATIONS), conversationId],
    {
      stdio: ["pipe", "pipe", "pipe"],
    },
  );
  let output = "";
  let stderr = "";
  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString();
    if (output.startsWith("ready\n")) markReady();
  });
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<{ operations: number; errors: string[] }>((resolve, reject) => {
    child.on("exit", (code) => {
      const summary = output.split("\n").find((line) => line.startsWith("{"));
      if (code !== 0 || !summary) reject(new Error(`writer ${writer} exited with ${code}: ${stderr}`));
      else resolve(JSON.parse(summary));
    });
  });
  return { ready, done, go: () => child.stdin.end("go\n") };
}

describe("three processes writing one catalog and one conversation at once", () => {
  it("lose nothing and meet no SQLITE_BUSY: immediate transactions, a row per history entry", async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "toolshed-writers-")), "toolshed.db");
    const db = migrateDatabase(file);
    await createCatalog(db, { name: "Team", id: "team" }, "test");
    await createCustomTool(db, "team", { name: "shared_tool", summary: "Shared.", description: "", inputSchema: { type: "object", properties: {} } }, "test");
    const conversation = await createConversation(db, { catalogId: "team", model: "m", agent: "a" });
    const revisionBefore = (await getCatalog(db, "team")).revision;

    const writers = Array.from({ length: WRITERS }, (_, index) => startWriter(file, index, conversation.id));
    await Promise.all(writers.map((writer) => writer.ready));
    for (const writer of writers) writer.go();
    const summaries = await Promise.all(writers.map((writer) => writer.done));

    expect(summaries.flatMap((summary) => summary.errors)).toEqual([]);
    const created = Math.ceil(ITERATIONS / 10);
    expect(summaries.map((summary) => summary.operations)).toEqual(Array(WRITERS).fill(2 * ITERATIONS + 2 * created));

    const history = (await getConversation(db, conversation.id)).history;
    expect(history).toHaveLength(WRITERS * ITERATIONS);
    for (let writer = 0; writer < WRITERS; writer++) {
      // Each writer's entries are all there, in the order it added them.
      const own = history.filter((name) => name.startsWith(`w${writer}_h`));
      expect(own).toEqual(Array.from({ length: ITERATIONS }, (_, index) => `w${writer}_h${index}`));
    }
    expect(await listAudit(db, "team", { subject: "shared_tool", limit: 10_000 })).toHaveLength(WRITERS * ITERATIONS + 1);
    expect((await listTools(db, "team")).filter((tool) => /^w\d_t\d+$/.test(tool.name))).toHaveLength(WRITERS * created);
    expect((await getCatalog(db, "team")).revision).toBe(revisionBefore + WRITERS * (ITERATIONS + created));
    expect(await countDecisions(db, "team")).toBe(WRITERS * created);
  }, 180_000);
});
