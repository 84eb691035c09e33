import { beforeEach, describe, expect, it } from "vitest";
import { cleanupDecisions } from "@/app/_services/retention";
import { readUsageStats, recordCountedDecision } from "@/app/_services/usage";
import { writeTransaction, type Db } from "@/db/client";
import { createCatalog } from "@/db/queries/catalogs";
import { addToHistory, createConversation, getConversation } from "@/db/queries/conversations";
import type { NewDecision } from "@/db/queries/decisions";
import { syncSourceTools } from "@/db/queries/source-tools";
import { createCustomTool } from "@/db/queries/tools";
import { addUsage } from "@/db/queries/usage-rollups";
import { incrementsOf } from "@/lib/usage/usage-buffer";
import { usageRollups } from "@/db/tables";
import { BUCKET_RELATIVE_ERROR } from "@/lib/usage/latency-histogram";
import type { UsageFigures } from "@/lib/usage/usage-stats";
import { countDecisions } from "../support/decisions";
import { freshDatabase } from "../support/fresh-database";

const CATALOG = "team";
let db: Db;
let conversationId: string;

beforeEach(async () => {
  db = await freshDatabase();
  await createCatalog(db, { name: "Team", id: CATALOG }, "test");
  for (const name of ["search_web", "read_file", "send_mail", "never_used"])
    await createCustomTool(db, CATALOG, { name, summary: `${name} summary`, description: `${name}.`, inputSchema: { type: "object" } }, "test");
  conversationId = (await createConversation(db, { catalogId: CATALOG, model: "gpt-5", agent: "build" })).id;
});

const base = {
  catalogId: CATALOG,
  revision: 1,
  mode: null,
  flags: [],
  selector: null,
  fallback: null,
  raw: null,
  rejected: [],
  tokens: {},
  model: "gpt-5",
  agent: "build",
} satisfies Partial<NewDecision>;

/** The conversation's tool history before a decision, as the services pass it. */
const heldBy = async (conversation: string | null) => new Set(conversation ? (await getConversation(db, conversation)).history : []);

async function preselect(names: string[], conversation: string | null = conversationId) {
  await recordCountedDecision(
    db,
    {
      ...base,
      conversationId: conversation,
      kind: "preselect",
      path: "preselect",
      input: {},
      result: { selected: names.map((name) => ({ name, score: 1 })), toolSet: [], dropped: [], candidateCount: 4 },
      latencyMs: 2,
    },
    await heldBy(conversation),
  );
  // As runPreselection does: the offered tools join the conversation after the decision.
  if (conversation) await addToHistory(db, conversation, names);
}

async function toolSearch(found: string[]) {
  await recordCountedDecision(
    db,
    {
      ...base,
      conversationId,
      kind: "tool-search",
      path: "semantic",
      input: {},
      result: { requested: [], tools: found },
      latencyMs: 3,
    },
    await heldBy(conversationId),
  );
  await addToHistory(db, conversationId, found);
}

async function call(tool: string, latencyMs: number, result: Record<string, unknown> = { outcome: "ok" }, overrides: Partial<NewDecision> = {}) {
  await recordCountedDecision(
    db,
    {
      ...base,
      conversationId,
      kind: "call",
      path: "call",
      input: { tool, via: "direct", argumentsBytes: 2, argumentsDigest: "x", definitionDigest: null, actor: "token:t", provider: null },
      result: { reason: null, needsApproval: false, approval: null, ...result },
      latencyMs,
      ...overrides,
    },
    await heldBy(conversationId),
  );
}

const figure = (list: UsageFigures[], name: string) => list.find((item) => item.name === name);

describe("usage rollups from recorded decisions", () => {
  it("count calls, errors by kind, offers, calls of offered tools and ToolSearch finds per tool, agent and model", async () => {
    await preselect(["search_web", "read_file"]);
    await call("search_web", 100);
    await call("search_web", 200, { outcome: "error", reason: "boom", failure: "upstream" });
    await call("search_web", 5_000, { outcome: "error", reason: "slow", failure: "timeout" });
    await call("search_web", 0, { outcome: "refused", reason: "denied" }, { agent: "plan" });
    await call("search_web", 50, { outcome: "error", reason: "Cancelled by the client.", failure: "cancelled" });
    // Not offered: the model called it anyway; then ToolSearch found one tool it lacked and one it held.
    await call("send_mail", 30);
    await toolSearch(["send_mail", "read_file"]);

    const stats = await readUsageStats(db, CATALOG, "24h");
    expect(figure(stats.tools, "search_web")).toMatchObject({
      calls: 5,
      errors: 3,
      errorsByKind: { refused: 1, timeout: 1, upstream: 1 },
      cancelled: 1,
      offered: 1,
      calledWhenOffered: 5,
      foundBySearch: 0,
    });
    expect(figure(stats.tools, "send_mail")).toMatchObject({ calls: 1, errors: 0, offered: 0, calledWhenOffered: 0, foundBySearch: 1 });
    expect(figure(stats.tools, "read_file")).toMatchObject({ calls: 0, offered: 1, foundBySearch: 0 });
    expect(figure(stats.agents, "build")).toMatchObject({ calls: 5, errors: 2 });
    expect(figure(stats.agents, "plan")).toMatchObject({ calls: 1, errors: 1, errorsByKind: { refused: 1, timeout: 0, upstream: 0 } });
    expect(figure(stats.models, "gpt-5")).toMatchObject({ calls: 6, errors: 3, offered: 2 });
    // Custom tools have no MCP server.
    expect(stats.servers).toEqual([]);
    // Custom tools run in the agent, where Toolshed sees no call: none is "never called".
    expect(stats.neverCalled).toEqual([]);
    expect(stats.neverCalledTotal).toBe(0);
  });

  it("add an MCP server's tools together", async () => {
    const mcpTool = (name: string) => ({
      name: `files__${name}`,
      summary: `${name}.`,
      description: `${name}.`,
      inputSchema: { type: "object" as const },
      tags: ["mcp"],
      meta: { mcpName: name },
    });
    await syncSourceTools(db, CATALOG, [{ source: "mcp", sourceRef: "files", drafts: [mcpTool("read"), mcpTool("write"), mcpTool("list")] }], "sync");
    await call("files__read", 100);
    await call("files__read", 100, { outcome: "error", reason: "boom", failure: "upstream" });
    await call("files__write", 400);
    await call("search_web", 10);
    const { servers, neverCalled } = await readUsageStats(db, CATALOG, "24h");
    expect(neverCalled).toEqual(["files__list"]);
    expect(servers).toHaveLength(1);
    expect(servers[0]).toMatchObject({ name: "files", calls: 3, errors: 1, errorsByKind: { refused: 0, timeout: 0, upstream: 1 } });
    expect(servers[0].p50Ms).toBeCloseTo(100, -1);
    expect(servers[0].p99Ms).toBeCloseTo(400, -2);
  });

  it("read percentiles from the histogram within its bucket error", async () => {
    const latencies = Array.from({ length: 200 }, (_, index) => 10 + index * 5);
    for (const latency of latencies) await call("read_file", latency);
    const read = figure((await readUsageStats(db, CATALOG, "1h")).tools, "read_file")!;
    for (const [q, value] of [
      [0.5, read.p50Ms],
      [0.95, read.p95Ms],
      [0.99, read.p99Ms],
    ] as const) {
      const exact = latencies[Math.ceil(q * latencies.length) - 1];
      expect(Math.abs(value! - exact)).toBeLessThanOrEqual(exact * BUCKET_RELATIVE_ERROR + 0.05);
    }
  });

  it("cover the hours of the window asked for", async () => {
    const now = Date.UTC(2026, 0, 31, 12, 30);
    const hour = 60 * 60 * 1000;
    const key = { catalogId: CATALOG, agent: "build", model: "gpt-5" };
    const ok = (tool: string) => [{ tool, latencyBucket: 20, counts: { calls: 1 } }];
    await writeTransaction(db, async (tx) => {
      await addUsage(tx, incrementsOf(key, ok("search_web"), now - 10 * 60 * 1000));
      await addUsage(tx, incrementsOf(key, ok("read_file"), now - 5 * hour));
      await addUsage(tx, incrementsOf(key, ok("send_mail"), now - 3 * 24 * hour));
      await addUsage(tx, incrementsOf(key, ok("never_used"), now - 20 * 24 * hour));
    });
    const called = async (window: "1h" | "24h" | "7d" | "30d") => (await readUsageStats(db, CATALOG, window, now)).tools.map((tool) => tool.name).sort();
    expect(await called("1h")).toEqual(["search_web"]);
    expect(await called("24h")).toEqual(["read_file", "search_web"]);
    expect(await called("7d")).toEqual(["read_file", "search_web", "send_mail"]);
    expect(await called("30d")).toEqual(["never_used", "read_file", "search_web", "send_mail"]);
  });

  it("survive the deletion of the decisions they came from", async () => {
    await preselect(["search_web"]);
    for (const latency of [40, 80, 120]) await call("search_web", latency);
    await toolSearch(["send_mail"]);
    const before = await readUsageStats(db, CATALOG, "24h");

    await cleanupDecisions(db, { days: 0, rowsPerCatalog: 1 });
    expect(await countDecisions(db, CATALOG)).toBe(1);
    const after = await readUsageStats(db, CATALOG, "24h");
    expect(after.tools).toEqual(before.tools);
    expect(figure(after.tools, "search_web")).toMatchObject({ calls: 3, offered: 1, calledWhenOffered: 3 });
    expect(figure(after.tools, "send_mail")).toMatchObject({ foundBySearch: 1 });
  });

  it("are forgotten a day after the longest window, by the decision cleanup", async () => {
    const now = Date.now();
    const day = 24 * 60 * 60 * 1000;
    const key = { catalogId: CATALOG, agent: "build", model: "gpt-5" };
    await writeTransaction(db, async (tx) => {
      await addUsage(tx, incrementsOf(key, [{ tool: "search_web", latencyBucket: 20, counts: { calls: 1 } }], now - 32 * day));
      await addUsage(tx, incrementsOf(key, [{ tool: "read_file", latencyBucket: 20, counts: { calls: 1 } }], now - 29 * day));
    });
    await cleanupDecisions(db, { days: 30, rowsPerCatalog: 0 }, now);
    expect((await db.select({ tool: usageRollups.tool }).from(usageRollups)).map((row) => row.tool)).toEqual(["read_file"]);
  });
});
