import { sql, type SQL } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { countUsage, flushUsage, readUsageStats } from "@/app/_services/usage";
import { type Db, executeOnPostgres, isPostgres } from "@/db/client";
import { createCatalog, deleteCatalog } from "@/db/queries/catalogs";
import { usageRollups } from "@/db/tables";
import { freshDatabase } from "../support/fresh-database";

let db: Db;

beforeEach(async () => {
  db = await freshDatabase();
  for (const id of ["team", "gone"]) await createCatalog(db, { name: id, id }, "test");
});

const offer = (catalogId: string, tools: string[], agent = "build") =>
  countUsage(
    db,
    { catalogId, agent, model: "gpt-5" },
    { kind: "preselect", input: {}, result: { selected: tools.map((name) => ({ name, score: 1 })) }, latencyMs: 2 },
    new Set(),
  );

const storedRows = async () =>
  (
    await db.select({ catalog: usageRollups.catalogId, tool: usageRollups.tool, agent: usageRollups.agent, offered: usageRollups.offered }).from(usageRollups)
  ).sort((a, b) => `${a.catalog}${a.tool}${a.agent}`.localeCompare(`${b.catalog}${b.tool}${b.agent}`));

const execute = (query: SQL) => (isPostgres(db) ? executeOnPostgres(db, query) : db.run(query));

describe("usage counted on a hot route", () => {
  it("is written within a second or so without anyone reading it, one row per tool, agent and hour however many decisions", async () => {
    for (let turn = 0; turn < 20; turn++) offer("team", ["search_web", "read_file"]);
    offer("team", ["search_web"], "plan");
    expect(await storedRows()).toEqual([]);
    await expect.poll(storedRows, { timeout: 10_000, interval: 100 }).toEqual([
      { catalog: "team", tool: "read_file", agent: "build", offered: 20 },
      { catalog: "team", tool: "search_web", agent: "build", offered: 20 },
      { catalog: "team", tool: "search_web", agent: "plan", offered: 1 },
    ]);
  });

  it("is in the figures as soon as they are read, and added to what the rollups held", async () => {
    offer("team", ["search_web"]);
    await flushUsage(db);
    offer("team", ["search_web"]);
    const stats = await readUsageStats(db, "team", "1h");
    expect(stats.tools.find((tool) => tool.name === "search_web")).toMatchObject({ offered: 2 });
  });

  it("of a catalog deleted before the write is dropped, and the other catalogs' is written", async () => {
    offer("gone", ["search_web"]);
    offer("team", ["read_file"]);
    await deleteCatalog(db, "gone");
    await flushUsage(db);
    expect(await storedRows()).toEqual([{ catalog: "team", tool: "read_file", agent: "build", offered: 1 }]);
  });

  it("is kept when its write fails, and written by the next one", async () => {
    offer("team", ["search_web"]);
    await execute(sql`ALTER TABLE usage_rollups RENAME TO usage_rollups_away`);
    await expect(flushUsage(db)).rejects.toThrow();
    await execute(sql`ALTER TABLE usage_rollups_away RENAME TO usage_rollups`);
    offer("team", ["search_web"]);
    await flushUsage(db);
    expect(await storedRows()).toEqual([{ catalog: "team", tool: "search_web", agent: "build", offered: 2 }]);
  });
});
