import { beforeEach, describe, expect, it } from "vitest";
import * as importRoute from "@/app/api/catalogs/[catalog]/import/route";
import * as bulkRoute from "@/app/api/catalogs/[catalog]/tools-bulk/route";
import * as toolsRoute from "@/app/api/catalogs/[catalog]/tools/route";
import * as catalogsRoute from "@/app/api/catalogs/route";
import type { Db } from "@/db/client";
import { listAudit } from "@/db/queries/audit";
import { createCatalog, getCatalog } from "@/db/queries/catalogs";
import { importTools as importDrafts, listTools } from "@/db/queries/tools";
import { teams } from "@/db/tables";
import { apiRequest, createTestToken, jsonRequest, params, useFreshDatabase } from "./helpers";

const team = params({ catalog: "team" });
const BUILTINS = 15;

const custom = (name: string, tags: string[] = []) => ({
  name,
  summary: `Does ${name}.`,
  description: `Does ${name}, at length.`,
  inputSchema: { type: "object" as const, properties: { id: { type: "string" } } },
  tags,
});

async function importTools(list: ReturnType<typeof custom>[], catalog = team) {
  const response = await importRoute.POST(jsonRequest("POST", { format: "toolshed.catalog", version: 1, tools: list }), catalog);
  expect(response.status, JSON.stringify(await response.clone().json())).toBe(200);
}

async function bulk(body: unknown, headers: Record<string, string> = {}, catalog = team) {
  const response = await bulkRoute.POST(jsonRequest("POST", body, headers), catalog);
  return { status: response.status, body: await response.json() };
}

async function tool(name: string, catalogId = "team") {
  return (await listTools(db, catalogId)).find((candidate) => candidate.name === name);
}

let db: Db;
beforeEach(async () => {
  db = await useFreshDatabase();
  expect((await catalogsRoute.POST(jsonRequest("POST", { name: "Team" }))).status).toBe(201);
  expect((await catalogsRoute.POST(jsonRequest("POST", { name: "Ops" }))).status).toBe(201);
});

describe("POST /api/catalogs/{c}/tools-bulk", () => {
  it("disables the named tools in one revision, audited as one catalog entry naming the count and the tools", async () => {
    await importTools([custom("alpha"), custom("beta"), custom("gamma")]);
    await bulk({ action: "disable", names: ["gamma"] });
    const before = (await getCatalog(db, "team")).revision;
    const { status, body } = await bulk({ action: "disable", names: ["alpha", "beta", "gamma"] });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      action: "disable",
      message: "Disabled 2 tools",
      revision: before + 1,
      changed: ["alpha", "beta"],
      unchanged: 1,
      undoable: true,
    });
    expect((await getCatalog(db, "team")).revision).toBe(before + 1);
    const entries = (await listAudit(db, "team")).filter((entry) => entry.revision === before + 1);
    expect(entries.find((entry) => entry.subjectKind === "catalog")).toMatchObject({ action: "bulk disable", after: { count: 2, tools: ["alpha", "beta"] } });
    expect(
      entries
        .filter((entry) => entry.subjectKind === "tool")
        .map((entry) => entry.subject)
        .sort(),
    ).toEqual(["alpha", "beta"]);
    expect((await tool("alpha"))?.enabled).toBe(false);
  });

  it("tags every tool matching the filters, beyond the first page, and undo takes the tags back", async () => {
    await importTools(Array.from({ length: 620 }, (_, i) => custom(`bulk_${i}`, i % 2 ? ["odd"] : [])));
    const { body } = await bulk({ action: "tag", matching: { q: "bulk_" }, addTags: ["reviewed"], removeTags: ["odd"] });
    expect(body.changed).toHaveLength(620);
    expect((await tool("bulk_1"))?.tags).toEqual(["reviewed"]);
    expect((await tool("read"))?.tags).not.toContain("reviewed");
    const undone = await bulk({ action: "undo", revision: body.revision });
    expect(undone.status).toBe(200);
    expect(undone.body.message).toBe("Undid the bulk tag of 620 tools");
    expect((await tool("bulk_1"))?.tags).toEqual(["odd"]);
    expect((await tool("bulk_2"))?.tags).toEqual([]);
  });

  it("refuses an undo once a tool changed since, changing nothing", async () => {
    await importTools([custom("alpha"), custom("beta")]);
    const { body } = await bulk({ action: "disable", names: ["alpha", "beta"] });
    await bulk({ action: "enable", names: ["beta"] });
    const undone = await bulk({ action: "undo", revision: body.revision });
    expect(undone.status).toBe(409);
    expect(undone.body.error.message).toContain('"beta"');
    expect((await tool("alpha"))?.enabled).toBe(false);
  });

  it("deletes the custom tools, keeps the built-ins with the reason, and undo makes them again", async () => {
    await importTools([custom("alpha"), custom("beta")]);
    const { body } = await bulk({ action: "delete", names: ["alpha", "beta", "read"] });
    expect(body).toMatchObject({ changed: ["alpha", "beta"], undoable: true });
    expect(body.skipped).toEqual([{ name: "read", reason: expect.stringContaining("builtin tool") }]);
    expect(await tool("alpha")).toBeUndefined();
    expect(await tool("read")).toBeDefined();
    expect((await bulk({ action: "undo", revision: body.revision })).status).toBe(200);
    expect((await tool("beta"))?.summary).toBe("Does beta.");
  });

  it("refuses a name the catalog lacks, changing nothing", async () => {
    await importTools([custom("alpha")]);
    const revision = (await getCatalog(db, "team")).revision;
    const { status, body } = await bulk({ action: "disable", names: ["alpha", "nope"] });
    expect(status).toBe(404);
    expect(body.error.message).toContain('"nope"');
    expect((await getCatalog(db, "team")).revision).toBe(revision);
    expect((await tool("alpha"))?.enabled).toBe(true);
  });

  it("copies tools to another catalog (a revision there, none here) and moves custom ones", async () => {
    await importTools([custom("alpha", ["x"]), custom("beta")]);
    const revision = (await getCatalog(db, "team")).revision;
    const copied = await bulk({ action: "copy", names: ["alpha"], target: "ops" });
    expect(copied.body).toMatchObject({ message: 'Copied 1 tool to catalog "ops"', revision: null, changed: ["alpha"] });
    expect((await getCatalog(db, "team")).revision).toBe(revision);
    expect(await tool("alpha", "ops")).toMatchObject({ source: "custom", tags: ["x"] });
    const moved = await bulk({ action: "move", names: ["beta", "write"], target: "ops" });
    expect(moved.body.changed).toEqual(["beta"]);
    expect(moved.body.skipped.map((skip: { name: string }) => skip.name)).toEqual(["write"]);
    expect(await tool("beta")).toBeUndefined();
    expect(await tool("beta", "ops")).toBeDefined();
    const audit = await listAudit(db, "ops", { subjectKind: "catalog" });
    expect(audit.map((entry) => entry.action)).toEqual(expect.arrayContaining(["bulk copy from team", "bulk move from team"]));
  });

  it("refuses a copy onto names the target has, and a target outside the caller's teams", async () => {
    await importTools([custom("alpha")]);
    await importTools([custom("alpha")], params({ catalog: "ops" }));
    const clash = await bulk({ action: "copy", names: ["alpha"], target: "ops" });
    expect(clash.status).toBe(409);
    expect(clash.body.error.message).toContain('"alpha"');
    await db.insert(teams).values({ id: "other", name: "Other" });
    await createCatalog(db, { name: "Theirs", id: "theirs", teamId: "other" }, "tests");
    expect((await bulk({ action: "copy", names: ["alpha"], target: "theirs" })).status).toBe(404);
    expect(await tool("alpha", "theirs")).toBeUndefined();
  });

  it("is for editors: a read token is refused; a body without tools says what it needs", async () => {
    const reader = await createTestToken(db, "read");
    expect((await bulk({ action: "disable", names: ["read"] }, { authorization: `Bearer ${reader}` })).status).toBe(403);
    const empty = await bulk({ action: "disable" });
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toContain("names");
    expect((await bulk({ action: "tag", names: ["read"] })).body.error.message).toContain("addTags");
  });

  it("disables 10,000 tools in one revision within seconds", async () => {
    await importDrafts(
      db,
      "team",
      Array.from({ length: 10_000 }, (_, i) => custom(`t_${i}`)),
      "tests",
    );
    const started = Date.now();
    const { body } = await bulk({ action: "disable", matching: { q: "t_" } });
    expect(body.changed).toHaveLength(10_000);
    expect(Date.now() - started).toBeLessThan(10_000);
    const page = await (await toolsRoute.GET(apiRequest("/api/catalogs/team/tools?state=disabled&limit=1"), team)).json();
    expect(page.total).toBe(10_000);
  }, 60_000);
});

describe("GET /api/catalogs/{c}/tools?sort=", () => {
  it("sorts by a column either way, and its cursor pages through every tool once", async () => {
    await importTools([custom("zeta", ["b"]), custom("alpha", ["c"]), custom("mid", ["a"])]);
    await bulk({ action: "disable", names: ["mid"] });
    const names = async (query: string) => {
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await (await toolsRoute.GET(apiRequest(`/api/catalogs/team/tools?${query}&limit=4${cursor ? `&cursor=${cursor}` : ""}`), team)).json();
        seen.push(...page.tools.map((entry: { name: string }) => entry.name));
        cursor = page.nextCursor;
      } while (cursor);
      return seen;
    };
    const byName = await names("sort=name");
    expect(byName).toHaveLength(BUILTINS + 3);
    expect(byName).toEqual([...byName].sort());
    expect(await names("sort=-name")).toEqual([...byName].reverse());
    expect((await names("sort=-enabled"))[0]).toBe("mid");
    expect(await names("source=custom&sort=tags")).toEqual(["mid", "zeta", "alpha"]);
    const refused = await toolsRoute.GET(apiRequest("/api/catalogs/team/tools?sort=colour"), team);
    expect(refused.status).toBe(400);
  });
});
