import { beforeEach, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { listAudit } from "@/db/queries/audit";
import { createCatalog, deleteCatalog, getCatalog, listCatalogSummaries, updateCatalog } from "@/db/queries/catalogs";
import { createCustomTool, deleteTool, getTool, importTools, listTools, updateTool } from "@/db/queries/tools";
import { seed } from "@/db/seed";
import { parseImport } from "@/lib/catalogs/exchange";
import { BUILTIN_TOOLS } from "@/lib/tools/builtin";
import { DEMO_TOOLS } from "@/lib/demo";
import { rejection, thrown } from "./support/thrown";
import { freshDatabase } from "../support/fresh-database";

const ACTOR = "test";

function draft(overrides: Record<string, unknown> = {}) {
  return {
    name: "weather_lookup",
    summary: "Look up the current weather for a city.",
    description: "Returns temperature and conditions.",
    inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    tags: ["weather"],
    ...overrides,
  };
}

let db: Db;
beforeEach(async () => {
  db = await freshDatabase();
});

describe("catalogs", () => {
  it("creates a catalog with a slug id, every built-in, revision 1 and an audit entry", async () => {
    const catalog = await createCatalog(db, { name: "Payments Team!" }, ACTOR);
    expect(catalog).toMatchObject({ id: "payments-team", name: "Payments Team!", revision: 1 });
    expect((await listTools(db, "payments-team")).map((tool) => tool.name)).toEqual(BUILTIN_TOOLS.map((tool) => tool.name));
    expect(await listAudit(db, "payments-team")).toMatchObject([{ subjectKind: "catalog", action: "create", actor: ACTOR, revision: 1 }]);
  });

  it("refuses a taken id given with a conflict, suffixes one made from a taken name, and refuses an empty name as bad input", async () => {
    await createCatalog(db, { name: "Ops" }, ACTOR);
    expect(await rejection(createCatalog(db, { name: "Other", id: "ops" }, ACTOR))).toMatchObject({ code: "conflict", field: "id" });
    expect((await createCatalog(db, { name: "ops" }, ACTOR)).id).toMatch(/^ops-[0-9a-f]{6}$/);
    expect(await rejection(createCatalog(db, { name: "  " }, ACTOR))).toMatchObject({ code: "bad_request", field: "name" });
    expect(await rejection(createCatalog(db, { name: "!!!" }, ACTOR))).toMatchObject({ code: "bad_request" });
  });

  it("renames without changing the id, and deletes with its tools", async () => {
    await createCatalog(db, { name: "Ops" }, ACTOR);
    expect(await updateCatalog(db, "ops", { name: "Operations" }, ACTOR)).toMatchObject({ id: "ops", name: "Operations", revision: 2 });
    expect(await listCatalogSummaries(db, ["default"])).toMatchObject([{ id: "ops", toolCount: BUILTIN_TOOLS.length }]);
    await deleteCatalog(db, "ops");
    expect((await rejection(getCatalog(db, "ops"))).code).toBe("not_found");
    expect((await rejection(listTools(db, "ops"))).code).toBe("not_found");
  });
});

describe("tools", () => {
  beforeEach(async () => {
    await createCatalog(db, { name: "Team" }, ACTOR);
  });

  it("creates a custom tool, bumping the revision and auditing the change", async () => {
    const tool = await createCustomTool(db, "team", draft(), ACTOR);
    expect(tool).toMatchObject({ name: "weather_lookup", source: "custom", enabled: true, registered: true, tags: ["weather"] });
    expect((await getCatalog(db, "team")).revision).toBe(2);
    expect(await listAudit(db, "team", { subjectKind: "tool", subject: "weather_lookup" })).toMatchObject([
      { action: "create", before: null, after: { name: "weather_lookup", summary: draft().summary } },
    ]);
  });

  it("refuses bad input with field-level errors and writes nothing", async () => {
    const before = (await getCatalog(db, "team")).revision;
    expect(await rejection(createCustomTool(db, "team", draft({ name: "bad name!" }), ACTOR))).toMatchObject({ code: "bad_request", field: "name" });
    expect(await rejection(createCustomTool(db, "team", draft({ inputSchema: { type: "array" } }), ACTOR))).toMatchObject({
      code: "bad_request",
      field: "inputSchema.type",
    });
    const invalidSchema = await rejection(
      createCustomTool(db, "team", draft({ inputSchema: { type: "object", properties: { a: { type: "strng" } } } }), ACTOR),
    );
    expect(invalidSchema.code).toBe("bad_request");
    expect(invalidSchema.field).toMatch(/^inputSchema\.properties\.a/);
    expect(await rejection(createCustomTool(db, "team", draft({ summary: "x".repeat(201) }), ACTOR))).toMatchObject({ field: "summary" });
    expect(await rejection(createCustomTool(db, "team", draft({ name: "read" }), ACTOR))).toMatchObject({ code: "conflict", field: "name" });
    expect((await getCatalog(db, "team")).revision).toBe(before);
    expect(await listTools(db, "team")).toHaveLength(BUILTIN_TOOLS.length);
  });

  it("refuses a 1 MB description and a 10,000-property schema as too large", async () => {
    expect(await rejection(createCustomTool(db, "team", draft({ description: "x".repeat(1024 * 1024) }), ACTOR))).toMatchObject({
      code: "too_large",
      field: "description",
      status: 413,
    });
    const properties = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`p${i}`, { type: "string" }]));
    expect(await rejection(createCustomTool(db, "team", draft({ inputSchema: { type: "object", properties } }), ACTOR))).toMatchObject({
      code: "too_large",
      field: "inputSchema",
    });
  });

  it("records enable, disable and rename as distinct audit actions", async () => {
    await createCustomTool(db, "team", draft(), ACTOR);
    await updateTool(db, "team", "weather_lookup", { enabled: false }, ACTOR);
    await updateTool(db, "team", "weather_lookup", { enabled: true }, ACTOR);
    await updateTool(db, "team", "weather_lookup", { name: "weather_now" }, ACTOR);
    // A rename is recorded under both names.
    expect((await listAudit(db, "team", { subjectKind: "tool" })).map((entry) => `${entry.action} ${entry.subject}`)).toEqual([
      "rename weather_lookup",
      "rename weather_now",
      "enable weather_lookup",
      "disable weather_lookup",
      "create weather_lookup",
    ]);
    expect((await getTool(db, "team", "weather_now")).name).toBe("weather_now");
    expect((await rejection(getTool(db, "team", "weather_lookup"))).code).toBe("not_found");
  });

  it("lets built-ins be disabled but not renamed, rewritten or deleted", async () => {
    expect((await updateTool(db, "team", "bash", { enabled: false }, ACTOR)).enabled).toBe(false);
    expect(await rejection(updateTool(db, "team", "bash", { name: "shell" }, ACTOR))).toMatchObject({ code: "bad_request", field: "name" });
    expect(await rejection(updateTool(db, "team", "bash", { description: "x" }, ACTOR))).toMatchObject({ field: "description" });
    expect((await rejection(deleteTool(db, "team", "bash", ACTOR))).code).toBe("bad_request");
    expect((await getTool(db, "team", "bash")).source).toBe("builtin");
  });

  it("refuses a rename onto an existing name and an empty patch", async () => {
    await createCustomTool(db, "team", draft(), ACTOR);
    expect((await rejection(updateTool(db, "team", "weather_lookup", { name: "grep" }, ACTOR))).code).toBe("conflict");
    expect((await rejection(updateTool(db, "team", "weather_lookup", {}, ACTOR))).code).toBe("bad_request");
  });

  it("deletes a custom tool and keeps its history", async () => {
    await createCustomTool(db, "team", draft(), ACTOR);
    await deleteTool(db, "team", "weather_lookup", ACTOR);
    expect((await rejection(getTool(db, "team", "weather_lookup"))).code).toBe("not_found");
    expect((await listAudit(db, "team", { subject: "weather_lookup" })).map((entry) => entry.action)).toEqual(["delete", "create"]);
  });
});

describe("import", () => {
  beforeEach(async () => {
    await createCatalog(db, { name: "Team" }, ACTOR);
  });

  it("converts a labelled set: null parameters become an empty object schema, long descriptions a cut summary", async () => {
    const long = "Find flights between any two airports worldwide. ".repeat(8).trim();
    const tools = parseImport({
      tools: [
        { name: "flights", description: long, parameters: null },
        { name: "calc", description: "A calculator.", parameters: { type: "object", properties: { expr: { type: "string" } } } },
      ],
      cases: [],
    });
    expect(tools[0].inputSchema).toEqual({ type: "object", properties: {} });
    expect(tools[0].summary.length).toBeLessThanOrEqual(200);
    expect(tools[0].summary.endsWith(".")).toBe(true);
    expect(long.startsWith(tools[0].summary.slice(0, -1))).toBe(true);
    const result = await importTools(db, "team", tools, ACTOR);
    expect(result.created).toEqual(["flights", "calc"]);
    expect((await getTool(db, "team", "calc")).inputSchema).toMatchObject({ properties: { expr: { type: "string" } } });
  });

  it("is all or nothing: every problem is listed and nothing changes", async () => {
    const error = thrown(() =>
      parseImport({
        tools: [
          { name: "ok_tool", description: "Fine." },
          { name: "bad name", description: 3 },
          { name: "ok_tool", description: "again" },
        ],
      }),
    );
    expect(error.code).toBe("bad_request");
    expect(error.problems?.map((problem) => problem.field)).toEqual(expect.arrayContaining(["tools.1.name", "tools.1.description", "tools.2.name"]));
    expect(await listTools(db, "team")).toHaveLength(BUILTIN_TOOLS.length);
  });

  it("round-trips an export: unchanged tools stay unchanged, built-ins only take their enabled state", async () => {
    await createCustomTool(db, "team", draft(), ACTOR);
    await updateTool(db, "team", "bash", { enabled: false }, ACTOR);
    const exported = { format: "toolshed.catalog", version: 1, tools: await listTools(db, "team") };
    const other = await createCatalog(db, { name: "Other" }, ACTOR);
    const result = await importTools(db, other.id, parseImport(exported), ACTOR);
    expect(result.created).toEqual(["weather_lookup"]);
    expect(result.updated).toEqual(["bash"]);
    expect(await getTool(db, other.id, "bash")).toMatchObject({ source: "builtin", enabled: false });
    const again = await importTools(db, other.id, parseImport(exported), ACTOR);
    expect(again.created).toEqual([]);
    expect(again.updated).toEqual([]);
  });
});

describe("seed", () => {
  it("creates the demo catalog once, with the built-ins and the demo tools", async () => {
    await seed(db, { demo: true });
    await seed(db, { demo: true });
    const tools = await listTools(db, "demo");
    expect(tools).toHaveLength(BUILTIN_TOOLS.length + DEMO_TOOLS.length);
    expect(DEMO_TOOLS.length).toBeGreaterThanOrEqual(40);
  });

  it("does nothing with seeding off, and does not bring back a deleted demo catalog", async () => {
    await seed(db, { demo: false });
    expect(await listCatalogSummaries(db, ["default"])).toEqual([]);
    await seed(db, { demo: true });
    await deleteCatalog(db, "demo");
    await seed(db, { demo: true });
    expect(await listCatalogSummaries(db, ["default"])).toEqual([]);
  });
});
