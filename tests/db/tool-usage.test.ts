import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { createCatalog } from "@/db/queries/catalogs";
import { recordDecision, type NewDecision } from "@/db/queries/decisions";
import { createEvaluation, finishEvaluation } from "@/db/queries/evaluations";
import { toolsChosenSince } from "@/db/queries/tool-usage";
import { decisions } from "@/db/tables";
import { freshDatabase } from "../support/fresh-database";

let db: Db;
beforeEach(async () => {
  db = await freshDatabase();
  await createCatalog(db, { name: "Team", id: "team" }, "test");
  await createCatalog(db, { name: "Other", id: "other" }, "test");
});

function decision(kind: NewDecision["kind"], result: unknown, catalogId = "team"): NewDecision {
  return {
    catalogId,
    conversationId: null,
    revision: 1,
    kind,
    path: kind === "preselect" ? "preselect" : "exact",
    model: "gpt-5",
    agent: "build",
    mode: null,
    flags: [],
    input: {},
    selector: "local",
    fallback: null,
    raw: null,
    result,
    rejected: [],
    latencyMs: 1,
    tokens: {},
  };
}

const evaluationRun = (cases: { query: string; expected: string[]; chosen?: string[] }[]) =>
  createEvaluation(db, { catalogId: "team", revision: 1, setName: "set", selector: "local", k: 1, cases, createdBy: "test" });

describe("which tools were chosen lately", () => {
  it("reads preselections' selected tools, ToolSearch's found tools and finished evaluation runs' chosen ones, since the date, of the catalog", async () => {
    const since = new Date(Date.now() - 60_000);
    await recordDecision(
      db,
      decision("preselect", {
        selected: [
          { name: "alpha", score: 1 },
          { name: "beta", score: 0.5 },
        ],
        candidateCount: 2,
      }),
    );
    await recordDecision(db, decision("tool-search", { tools: ["gamma"] }));
    // A search that found nothing, one without a list, and decisions that do not count.
    await recordDecision(db, decision("tool-search", { tools: [] }));
    await recordDecision(db, decision("tool-search", { error: "no match" }));
    await recordDecision(db, decision("preselect", { selected: [{ name: "elsewhere", score: 1 }] }, "other"));
    const old = await recordDecision(db, decision("preselect", { selected: [{ name: "long-ago", score: 1 }] }));
    await db
      .update(decisions)
      .set({ createdAt: new Date(since.getTime() - 1) })
      .where(eq(decisions.id, old.id));
    const done = await evaluationRun([{ query: "q", expected: ["delta"] }]);
    await finishEvaluation(db, done.id, { metrics: {}, misses: [], cases: [{ query: "q", expected: ["delta"], chosen: ["delta", "epsilon"] }] });
    await evaluationRun([{ query: "q", expected: ["running"], chosen: ["still-running"] }]);

    const usage = await toolsChosenSince(db, "team", since);
    expect([...usage.chosen].toSorted()).toEqual(["alpha", "beta", "delta", "epsilon", "gamma"]);
    expect(usage.decisions).toBe(4);
    expect(usage.evaluations).toBe(2);
  });
});
