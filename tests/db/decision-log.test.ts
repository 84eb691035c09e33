import { gt, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { cleanupDecisions, DEFAULT_RETENTION, retentionFromEnv } from "@/app/_services/retention";
import { writeTransaction, type Db } from "@/db/client";
import { createCatalog } from "@/db/queries/catalogs";
import { createConversation, deleteConversation, getConversation, listMessages, listTranscript } from "@/db/queries/conversations";
import { getDecision, pageDecisions, recordDecision, type NewDecision } from "@/db/queries/decisions";
import { countDecisions } from "../support/decisions";
import { conversations, decisions } from "@/db/tables";
import { ToolshedError } from "@/lib/errors";
import { freshDatabase } from "../support/fresh-database";

type Message = { role: "user" | "assistant"; content: string };

let db: Db;
beforeEach(async () => {
  db = await freshDatabase();
  await createCatalog(db, { name: "Team", id: "team" }, "test");
  await createCatalog(db, { name: "Other", id: "other" }, "test");
});

function decision(overrides: Partial<NewDecision> = {}): NewDecision {
  return {
    catalogId: "team",
    conversationId: null,
    revision: 1,
    kind: "preselect",
    path: "preselect",
    model: "gpt-5",
    agent: "build",
    mode: null,
    flags: [],
    input: { messages: [{ role: "user", content: "hello" }], k: 5, history: [], provider: null },
    selector: "local",
    fallback: null,
    raw: { ranked: ["a"] },
    result: { selected: [{ name: "a", score: 1 }], toolSet: [], dropped: [], candidateCount: 1 },
    rejected: [],
    latencyMs: 1,
    tokens: {},
    ...overrides,
  };
}

/** The stored input column, as text: what the decision really costs on disk. */
async function storedInput(id: string): Promise<string> {
  return (
    await db
      .select({ input: sql<string>`${decisions.input}` })
      .from(decisions)
      .where(sql`${decisions.id} = ${id}`)
  )[0].input;
}

/** A long conversation: every turn sends the whole history again, as API callers and the playground do. */
async function converse(turns: number, conversationId: string): Promise<{ ids: string[]; messages: Message[] }> {
  const messages: Message[] = [];
  const ids: string[] = [];
  for (let turn = 0; turn < turns; turn++) {
    messages.push({ role: "user", content: `Question ${turn}: ${"words ".repeat(200)}` });
    ids.push((await recordDecision(db, decision({ conversationId, input: { messages: [...messages], k: 5, history: [], provider: null } }))).id);
    messages.push({ role: "assistant", content: `Answer ${turn}` });
  }
  return { ids, messages };
}

describe("decisions refer to their conversation instead of copying it", () => {
  it("stores each message once: a decision keeps a reference, and its detail reads the messages back", async () => {
    const conversation = await createConversation(db, { catalogId: "team", model: "gpt-5", agent: "build" });
    const { ids, messages } = await converse(30, conversation.id);

    // Every message of the conversation is stored once, in order.
    expect((await listTranscript(db, conversation.id)).map(({ role, content }) => ({ role, content }))).toEqual(messages.slice(0, -1));
    // The 30th decision saw 59 messages of ≈ 1.2 kB; it stores a reference of a few dozen bytes.
    const last = await storedInput(ids.at(-1)!);
    expect(last.length).toBeLessThan(200);
    expect(JSON.parse(last)).toMatchObject({ messages: [], transcript: { count: 59 }, k: 5 });
    let total = 0;
    for (const id of ids) total += (await storedInput(id)).length;
    expect(total).toBeLessThan(30 * 200);

    // The detail gives the messages as the decision saw them, for the page and for replay.
    expect(((await getDecision(db, ids.at(-1)!)).input as { messages: Message[] }).messages).toEqual(messages.slice(0, -1));
    expect(((await getDecision(db, ids[0])).input as { messages: Message[] }).messages).toEqual(messages.slice(0, 1));
  });

  it("keeps messages in the decision when the conversation holds another history, and when there is no conversation", async () => {
    const conversation = await createConversation(db, { catalogId: "team", model: "gpt-5", agent: "build" });
    await converse(2, conversation.id);
    const edited: Message[] = [
      { role: "user", content: "A rewritten first question" },
      { role: "user", content: "and another" },
    ];
    const id = (await recordDecision(db, decision({ conversationId: conversation.id, input: { messages: edited, k: null, history: [], provider: null } }))).id;
    expect(JSON.parse(await storedInput(id)).messages).toEqual(edited);
    expect(((await getDecision(db, id)).input as { messages: Message[] }).messages).toEqual(edited);
    // The conversation was not touched by the other history.
    expect(await listTranscript(db, conversation.id)).toHaveLength(3);

    const alone = (await recordDecision(db, decision())).id;
    expect((await getDecision(db, alone)).input).toEqual(decision().input);
  });

  it("returns the ids of the messages it stored, the last message's last (the playground attaches the turn to it)", async () => {
    const conversation = await createConversation(db, { catalogId: "team", model: "gpt-5", agent: "build" });
    const first = await recordDecision(db, decision({ conversationId: conversation.id }));
    expect(first.appendedMessageIds).toHaveLength(1);
    expect((await listMessages(db, conversation.id)).map((message) => message.id)).toEqual(first.appendedMessageIds);
    // The same messages again: nothing new to store.
    expect((await recordDecision(db, decision({ conversationId: conversation.id }))).appendedMessageIds).toEqual([]);
  });

  it("adds the tools it chose to the conversation's history in its own transaction, each name once", async () => {
    const conversation = await createConversation(db, { catalogId: "team", model: "gpt-5", agent: "build" });
    await recordDecision(db, decision({ conversationId: conversation.id }), ["read", "grep"]);
    await recordDecision(db, decision({ conversationId: conversation.id }), ["grep", "weather"]);
    expect((await getConversation(db, conversation.id)).history).toEqual(["read", "grep", "weather"]);
    // Without a conversation there is no history to add to, and the decision is still recorded.
    expect((await recordDecision(db, decision(), ["read"])).id).toBeTruthy();
  });

  it("starts no conversation in a catalog that is gone: the catalog's 404, nothing stored", async () => {
    await expect(createConversation(db, { catalogId: "gone", model: "gpt-5", agent: "build" })).rejects.toMatchObject({ code: "not_found", field: "catalog" });
    await expect(createConversation(db, { catalogId: "gone", model: "gpt-5", agent: "build" })).rejects.toThrow('Catalog "gone"');
    expect(await db.select().from(conversations)).toEqual([]);
  });

  it("says how many messages are missing once the conversation is deleted", async () => {
    const conversation = await createConversation(db, { catalogId: "team", model: "gpt-5", agent: "build" });
    const { ids } = await converse(3, conversation.id);
    await deleteConversation(db, "team", conversation.id);
    const input = (await getDecision(db, ids[2])).input as { messages: Message[]; messagesUnavailable?: number };
    expect(input.messages).toEqual([]);
    expect(input.messagesUnavailable).toBe(5);
  });
});

describe("pages of decisions", () => {
  it("walks every decision once, newest first, 50 a page by default, without input and raw output", async () => {
    const ids: string[] = [];
    for (let index = 0; index < 120; index++) ids.push((await recordDecision(db, decision({ result: { selected: [], candidates: ["x", "y"], n: index } }))).id);
    // Same-millisecond decisions are ordered by insertion too.
    await db
      .update(decisions)
      .set({ createdAt: new Date(1_700_000_000_000) })
      .where(sql`rowid % 3 = 0`);
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await pageDecisions(db, "team", { cursor });
      pages++;
      expect(page.decisions.length).toBeLessThanOrEqual(50);
      for (const item of page.decisions) {
        expect(item).not.toHaveProperty("input");
        expect(item).not.toHaveProperty("raw");
        expect(item.result).not.toHaveProperty("candidates");
      }
      seen.push(...page.decisions.map((item) => item.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(120);
    expect(seen.toSorted()).toEqual(ids.toSorted());
    // Newest first: the ones moved to an old millisecond come last, in reverse insertion order.
    const moved = ids.filter((_, index) => (index + 1) % 3 === 0);
    expect(seen.slice(-moved.length)).toEqual(moved.toReversed());
  });

  it("takes a limit of up to 500, keeps filters across pages, and refuses a cursor it did not give", async () => {
    for (let index = 0; index < 7; index++)
      await recordDecision(db, decision({ kind: index % 2 ? "tool-search" : "preselect", path: index % 2 ? "exact" : "preselect" }));
    const first = await pageDecisions(db, "team", { kind: "preselect", limit: 3 });
    expect(first.decisions).toHaveLength(3);
    const second = await pageDecisions(db, "team", { kind: "preselect", limit: 3, cursor: first.nextCursor! });
    expect(second.decisions).toHaveLength(1);
    expect(second.nextCursor).toBeNull();
    expect((await pageDecisions(db, "team", { limit: 5_000 })).decisions).toHaveLength(7);
    await expect(pageDecisions(db, "team", { cursor: "not-a-cursor" })).rejects.toThrow(ToolshedError);
    expect((await pageDecisions(db, "other")).decisions).toEqual([]);
  });
});

describe("decisions about one tool", () => {
  it("are its calls and the preselections and ToolSearch calls that chose it", async () => {
    const call = (tool: string) =>
      decision({ kind: "call", path: "call", input: { tool, via: "direct" }, result: { outcome: "ok", reason: null, needsApproval: false, approval: null } });
    const preselected = await recordDecision(
      db,
      decision({
        result: {
          selected: [
            { name: "a", score: 1 },
            { name: "b", score: 0.5 },
          ],
        },
      }),
    );
    const found = await recordDecision(db, decision({ kind: "tool-search", path: "semantic", result: { requested: [], tools: ["c", "a"] } }));
    const calledA = await recordDecision(db, call("a"));
    await recordDecision(db, call("b"));
    await recordDecision(db, decision({ kind: "tool-search", path: "exact", result: { requested: ["a"], tools: [] } }));
    await recordDecision(db, decision({ catalogId: "other", result: { selected: [{ name: "a", score: 1 }] } }));

    const ids = async (tool: string, kind?: NewDecision["kind"]) => (await pageDecisions(db, "team", { tool, kind })).decisions.map((item) => item.id);
    expect(await ids("a")).toEqual([calledA.id, found.id, preselected.id]);
    expect(await ids("a", "call")).toEqual([calledA.id]);
    expect(await ids("c")).toEqual([found.id]);
    expect(await ids("nothing")).toEqual([]);
  });
});

describe("what each decision was asked, in the list and its filters", () => {
  const call = (tool: string, outcome: "ok" | "error" | "refused") =>
    decision({
      kind: "call",
      path: "call",
      selector: null,
      input: { tool, via: "direct" },
      result: { outcome, reason: null, needsApproval: false, approval: null },
    });

  it("is a query, the last user message (also when its conversation keeps it) or a call's tool, cut at 500 characters", async () => {
    const conversation = await createConversation(db, { catalogId: "team", model: "gpt-5", agent: "build" });
    const kept = await recordDecision(
      db,
      decision({
        conversationId: conversation.id,
        input: {
          messages: [
            { role: "user", content: "Book a table for two" },
            { role: "assistant", content: "Where?" },
            { role: "user", content: "At Luigi's" },
          ],
          k: 5,
        },
      }),
    );
    expect(await storedInput(kept.id)).not.toContain("Luigi");
    const inline = await recordDecision(db, decision({ input: { messages: [{ role: "user", content: "x".repeat(800) }], k: 5 } }));
    const search = await recordDecision(db, decision({ kind: "tool-search", path: "semantic", input: { query: "send an invoice" } }));
    const called = await recordDecision(db, call("notes__get", "refused"));
    const asked = Object.fromEntries((await pageDecisions(db, "team")).decisions.map((item) => [item.id, item.asked]));
    expect(asked[kept.id]).toBe("At Luigi's");
    expect(asked[inline.id]).toBe(`${"x".repeat(500)}…`);
    expect(asked[search.id]).toBe("send an invoice");
    expect(asked[called.id]).toBe("notes__get");
  });

  it("filters by what was asked (any case, % and _ taken literally), by selector and by outcome", async () => {
    const invoice = await recordDecision(
      db,
      decision({
        kind: "tool-search",
        path: "semantic",
        selector: "openai:gpt-5-mini",
        input: { query: "Send an INVOICE" },
        result: { requested: [], tools: ["send_invoice"] },
      }),
    );
    const percent = await recordDecision(db, decision({ input: { messages: [{ role: "user", content: "grow 50% faster" }] }, result: { selected: [] } }));
    const answered = await recordDecision(db, call("mail", "ok"));
    const refused = await recordDecision(db, call("mail", "refused"));
    const ids = async (filter: Parameters<typeof pageDecisions>[2]) => (await pageDecisions(db, "team", filter)).decisions.map((item) => item.id);
    expect(await ids({ asked: "invoice" })).toEqual([invoice.id]);
    expect(await ids({ asked: "50%" })).toEqual([percent.id]);
    expect(await ids({ asked: "5_%" })).toEqual([]);
    expect(await ids({ selector: "openai:gpt-5-mini" })).toEqual([invoice.id]);
    expect(await ids({ selector: "none" })).toEqual([refused.id, answered.id]);
    expect(await ids({ outcome: "chosen" })).toEqual([answered.id, invoice.id]);
    expect(await ids({ outcome: "none" })).toEqual([percent.id]);
    expect(await ids({ outcome: "refused" })).toEqual([refused.id]);
    expect(await ids({ outcome: "chosen", asked: "mail" })).toEqual([answered.id]);
  });
});

describe("retention", () => {
  it("deletes decisions older than the days setting and beyond the rows per catalog", async () => {
    const now = Date.UTC(2026, 5, 1);
    const day = 24 * 60 * 60 * 1000;
    const old: string[] = [];
    for (let index = 0; index < 5; index++) old.push((await recordDecision(db, decision())).id);
    await db
      .update(decisions)
      .set({ createdAt: new Date(now - 40 * day) })
      .where(
        sql`${decisions.id} IN (${sql.join(
          old.map((id) => sql`${id}`),
          sql`, `,
        )})`,
      );
    for (let index = 0; index < 30; index++) await recordDecision(db, decision());
    for (let index = 0; index < 4; index++) await recordDecision(db, decision({ catalogId: "other" }));
    await db
      .update(decisions)
      .set({ createdAt: new Date(now - day) })
      .where(gt(decisions.createdAt, new Date(now - 2 * day)));

    expect(await cleanupDecisions(db, { days: 30, rowsPerCatalog: 0 }, now)).toBe(5);
    expect(await countDecisions(db, "team")).toBe(30);
    const newest = (await pageDecisions(db, "team", { limit: 10 })).decisions.map((item) => item.id);
    expect(await cleanupDecisions(db, { days: 0, rowsPerCatalog: 10 }, now)).toBe(20);
    expect((await pageDecisions(db, "team", { limit: 500 })).decisions.map((item) => item.id)).toEqual(newest);
    expect(await countDecisions(db, "other")).toBe(4);
    expect(await cleanupDecisions(db, { days: 0, rowsPerCatalog: 0 }, now)).toBe(0);
  });

  it("deletes in batches until all are gone", async () => {
    await writeTransaction(db, async (tx) => {
      for (let start = 0; start < 4_500; start += 500) {
        const rows = Array.from({ length: 500 }, (_, offset) => ({
          ...decision({ input: {}, result: {}, raw: null }),
          id: `d${start + offset}`,
          createdAt: new Date(1_000 + start + offset),
        }));
        await tx.insert(decisions).values(rows);
      }
    });
    expect(await cleanupDecisions(db, { days: 0, rowsPerCatalog: 100 }, Date.now())).toBe(4_400);
    expect(await countDecisions(db, "team")).toBe(100);
  });

  it("reads its settings from the environment, defaults for anything unreadable", async () => {
    expect(retentionFromEnv({})).toEqual(DEFAULT_RETENTION);
    expect(
      retentionFromEnv({ TOOLSHED_DECISION_RETENTION_DAYS: "7", TOOLSHED_DECISION_RETENTION_ROWS: "0", TOOLSHED_DECISION_CLEANUP_INTERVAL_MS: "60000" }),
    ).toEqual({
      days: 7,
      rowsPerCatalog: 0,
      intervalMs: 60_000,
    });
    expect(retentionFromEnv({ TOOLSHED_DECISION_RETENTION_DAYS: "soon" }).days).toBe(30);
  });
});
