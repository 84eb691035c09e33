import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { locationOf, migrateDatabase, type Db } from "@/db/client";
import { usesPostgres } from "@/db/dialect";
import { previewImportJob, runImportJob, validateImport } from "@/db/import-job";
import { importWorkerRunning, runImport, stopImportWorker } from "@/db/import-runner";
import { listAudit } from "@/db/queries/audit";
import { createCatalog, getCatalog } from "@/db/queries/catalogs";
import { getConversation } from "@/db/queries/conversations";
import { planCatalogImport, writeImport } from "@/db/queries/tool-import";
import { createCustomTool, getTool, importTools, listTools, updateTool } from "@/db/queries/tools";
import { tools } from "@/db/tables";
import { parseImport } from "@/lib/catalogs/exchange";
import { acceptedFormatsText } from "@/lib/catalogs/import-formats";
import type { ImportProgress } from "@/lib/catalogs/import-job";
import { ToolshedError } from "@/lib/errors";
import { BUILTIN_TOOLS } from "@/lib/tools/builtin";
import { rejection, thrown } from "./support/thrown";
import { freshDatabase } from "../support/fresh-database";

const ACTOR = "test";

function labelledSet(count: number, prefix = "tool") {
  return {
    tools: Array.from({ length: count }, (_, index) => ({
      name: `${prefix}_${index}`,
      description: `Does thing number ${index}.`,
      parameters: { type: "object", properties: { id: { type: "string" }, limit: { type: "integer", minimum: 1 } }, required: ["id"] },
    })),
  };
}

let db: Db;
beforeEach(async () => {
  db = await freshDatabase();
  await createCatalog(db, { name: "Team", id: "team" }, ACTOR);
});

describe("the import write", () => {
  it("takes 5,000 new tools in one revision with an audit entry each (one statement per tool list failed above 4,095)", async () => {
    const before = (await getCatalog(db, "team")).revision;
    const result = await importTools(db, "team", parseImport(labelledSet(5_000)), ACTOR);
    expect(result.created).toHaveLength(5_000);
    expect(result.revision).toBe(before + 1);
    expect(await listTools(db, "team")).toHaveLength(BUILTIN_TOOLS.length + 5_000);
    const audit = (await listAudit(db, "team", { limit: 10_000 })).filter((entry) => entry.action === "import");
    expect(audit).toHaveLength(5_000);
    expect(new Set(audit.map((entry) => entry.revision))).toEqual(new Set([result.revision]));
    expect(audit.find((entry) => entry.subject === "tool_7")).toMatchObject({
      actor: ACTOR,
      before: null,
      after: { name: "tool_7", source: "custom", registered: true, requires: {}, sourceRef: null },
    });
    expect((await getTool(db, "team", "tool_4999")).inputSchema).toEqual(labelledSet(5_000).tools[4_999].parameters);
  });

  it("audits updates with the tool before and after, as the tool editor does, and leaves unchanged tools alone", async () => {
    await importTools(db, "team", parseImport(labelledSet(3)), ACTOR);
    const changed = labelledSet(3);
    changed.tools[1].description = "Does something else now.";
    const result = await importTools(db, "team", parseImport({ tools: [...changed.tools, { name: "bash", description: "x", parameters: null }] }), "second");
    expect(result).toMatchObject({ created: [], updated: ["tool_1"], unchanged: ["tool_0", "tool_2"], skipped: [{ name: "bash" }] });
    const [entry] = await listAudit(db, "team", { subject: "tool_1" });
    expect(entry).toMatchObject({
      action: "import",
      actor: "second",
      revision: result.revision,
      before: { description: "Does thing number 1." },
      after: { description: "Does something else now." },
    });
    await updateTool(db, "team", "tool_1", { enabled: false }, ACTOR);
    // A tool disabled since stays disabled when the import does not say otherwise.
    expect((await importTools(db, "team", parseImport(changed), ACTOR)).unchanged).toContain("tool_1");
    expect((await getTool(db, "team", "tool_1")).enabled).toBe(false);
  });

  it("plans again inside the write when the catalog changed after the plan", async () => {
    const drafts = parseImport(labelledSet(2));
    const plan = await planCatalogImport(db, "team", drafts);
    expect(plan.result.created).toEqual(["tool_0", "tool_1"]);
    await createCustomTool(db, "team", { name: "tool_1", summary: "Made meanwhile.", description: "", inputSchema: { type: "object", properties: {} } }, ACTOR);
    const result = await writeImport(db, plan, drafts, ACTOR);
    expect(result).toMatchObject({ created: ["tool_0"], updated: ["tool_1"] });
    expect((await getTool(db, "team", "tool_1")).summary).toBe("Does thing number 1.");
  });

  it("lets two imports of the same new tools race: one creates them all, the other then finds them unchanged", async () => {
    const drafts = parseImport(labelledSet(300));
    const results = await Promise.all([importTools(db, "team", drafts, "first"), importTools(db, "team", drafts, "second")]);
    const names = drafts.map((draft) => draft.name);
    expect(results.map((result) => result.created.length).sort()).toEqual([0, 300]);
    expect(results.map((result) => result.unchanged.length).sort()).toEqual([0, 300]);
    expect(results.flatMap((result) => result.created).sort()).toEqual([...names].sort());
    expect(await listTools(db, "team")).toHaveLength(BUILTIN_TOOLS.length + 300);
    expect((await listAudit(db, "team", { limit: 1_000 })).filter((entry) => entry.action === "import")).toHaveLength(300);
  });

  it("skips, with the reason, a custom definition of a tool a source manages and a source's tool this catalog lacks", async () => {
    await db
      .update(tools)
      .set({ source: "mcp", sourceRef: "srv" })
      .where(and(eq(tools.catalogId, "team"), eq(tools.name, "read")));
    const document = {
      format: "toolshed.catalog",
      version: 1,
      tools: [
        ...parseImport(labelledSet(2)),
        { name: "read", source: "custom", summary: "Mine.", description: "x", inputSchema: { type: "object" }, tags: [], enabled: false },
        { name: "notes__search", source: "mcp", summary: "Search notes.", description: "", inputSchema: { type: "object" }, tags: [], enabled: true },
        { name: "bash", source: "plugin", summary: "Not the built-in.", description: "", inputSchema: { type: "object" }, tags: [], enabled: false },
      ],
    };
    const result = await importTools(db, "team", parseImport(document), ACTOR);
    expect(result.created).toEqual(["tool_0", "tool_1"]);
    expect(result.skipped).toEqual([
      { name: "read", reason: 'Here "read" comes from the mcp source, which defines it: the file\'s custom definition is not imported over it.' },
      {
        name: "notes__search",
        reason: "It comes from the mcp source, which does not provide it in this catalog: add that source here and import again to take its state.",
      },
      { name: "bash", reason: "In the file it comes from the plugin source, here from the builtin source: not the same tool." },
    ]);
    expect(await getTool(db, "team", "read")).toMatchObject({ source: "mcp", enabled: true });
    expect((await getTool(db, "team", "bash")).enabled).toBe(true);
    await expect(getTool(db, "team", "notes__search")).rejects.toThrow(/not found/);
  });

  it("gives a source's tool only its enabled state and tags, audited as such", async () => {
    const exported = {
      format: "toolshed.catalog",
      version: 1,
      tools: (await listTools(db, "team")).map((tool) =>
        tool.name === "bash" ? { ...tool, description: "Other text.", enabled: false, tags: ["shell"] } : tool,
      ),
    };
    const result = await importTools(db, "team", parseImport(exported), ACTOR);
    expect(result).toMatchObject({ created: [], updated: ["bash"], skipped: [] });
    expect(await getTool(db, "team", "bash")).toMatchObject({
      enabled: false,
      tags: ["shell"],
      description: BUILTIN_TOOLS.find((tool) => tool.name === "bash")!.description,
    });
    expect((await listAudit(db, "team", { subject: "bash" }))[0]).toMatchObject({
      action: "import",
      before: { enabled: true },
      after: { enabled: false, tags: ["shell"] },
    });
  });
});

describe("the import job", () => {
  it("validates tool by tool with the same problems, fields and messages as parseImport, reporting progress", async () => {
    const document = labelledSet(600);
    document.tools[3] = { name: "bad name", description: 3, parameters: { type: "nope" } } as never;
    document.tools[550] = { ...document.tools[550], name: "tool_2" };
    const expected = thrown(() => parseImport(document));
    const reports: number[] = [];
    const actual = thrown(() => validateImport(document, (done) => reports.push(done)));
    expect(actual.problems).toEqual(expected.problems);
    expect(actual.message).toBe(expected.message);
    expect(actual.code).toBe(expected.code);
    expect(reports).toEqual([0, 250, 500]);
    // A document of an unknown format fails as parseImport fails; one that is not a tools list names the formats an import reads.
    expect(thrown(() => validateImport({ format: "other", tools: [] })).message).toBe(thrown(() => parseImport({ format: "other", tools: [] })).message);
    for (const bad of [null, { tools: "x" }, [{ foo: 1 }]]) expect(thrown(() => validateImport(bad)).message).toContain(acceptedFormatsText());
    expect(validateImport(labelledSet(3))).toEqual(parseImport(labelledSet(3)));
  });

  it("reads JSON text, and refuses more than 50,000 tools before looking at any", async () => {
    const progress: ImportProgress[] = [];
    const result = await runImportJob(db, { catalogId: "team", actor: ACTOR, text: JSON.stringify(labelledSet(300)) }, (step) => progress.push(step));
    expect(result.created).toHaveLength(300);
    expect(progress.at(-1)).toEqual({ done: 300, total: 300, phase: "writing" });
    expect((await rejection(runImportJob(db, { catalogId: "team", actor: ACTOR, text: "{" }))).message).toMatch(/not valid JSON/);
    const huge = await rejection(runImportJob(db, { catalogId: "team", actor: ACTOR, document: { tools: Array(50_001).fill({}) } }));
    expect(huge).toMatchObject({ code: "too_large", field: "tools" });
  });
});

describe("imports of other formats", () => {
  /** The labelled set as OpenAI Chat Completions function tools, a plain list. */
  const asOpenAi = (count: number) => labelledSet(count).tools.map((tool) => ({ type: "function", function: { ...tool, strict: true } }));

  it("previews an OpenAI file by its format, imports it, and names each problem by the file's own field", async () => {
    const file = asOpenAi(203);
    const preview = await previewImportJob(db, { catalogId: "team", actor: ACTOR, text: JSON.stringify(file) });
    expect(preview.format).toEqual({ id: "openai-chat", label: "OpenAI Chat Completions function tools" });
    expect(preview.notes).toEqual(['"strict" (on 203 tools) is not kept: an imported tool is its name, description and input schema.']);
    expect(preview.created).toHaveLength(203);
    expect(preview.invalid).toEqual([]);
    const result = await runImportJob(db, { catalogId: "team", actor: ACTOR, document: { tools: file } });
    expect(result.created).toHaveLength(203);
    expect((await getTool(db, "team", "tool_7")).inputSchema).toEqual(file[7].function.parameters);

    const broken = asOpenAi(3) as unknown[];
    broken[1] = { type: "function", function: { name: "bad name", description: "", parameters: { type: "nope" } } };
    broken[2] = { name: "anthropic_one", input_schema: { type: "object" } };
    const { invalid, created } = await previewImportJob(db, { catalogId: "team", actor: ACTOR, document: broken });
    expect(created).toEqual([]);
    expect(invalid.map(({ name, index, problems }) => ({ name, index, fields: problems.map((problem) => problem.field) }))).toEqual([
      { name: "bad name", index: 1, fields: ["tools.1.function.name", "tools.1.function.description", "tools.1.function.parameters.type"] },
      { name: "anthropic_one", index: 2, fields: ["tools.2"] },
    ]);
    await expect(runImportJob(db, { catalogId: "team", actor: ACTOR, document: broken })).rejects.toThrow(/Import rejected: 4 problems/);
  });

  it("refuses an MCP client configuration as a tools import, saying what it is", async () => {
    const error = await rejection(runImportJob(db, { catalogId: "team", actor: ACTOR, document: { mcpServers: { x: { command: "npx" } } } }));
    expect(error.message).toMatch(/This is an MCP client configuration \(its servers are in "mcpServers"\)/);
  });
});

describe("the import worker", () => {
  afterAll(() => stopImportWorker());

  /** A database the worker's own connection reaches: a file on SQLite (an in-memory one is this connection's alone), the test's own on PostgreSQL. */
  async function reachableDatabase(): Promise<Db> {
    if (usesPostgres()) return db;
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "toolshed-import-")), "toolshed.db");
    const onDisk = migrateDatabase(file);
    expect(locationOf(onDisk)).toEqual({ sqlite: file });
    expect(locationOf(db)).toBeUndefined();
    await createCatalog(onDisk, { name: "Team", id: "team" }, ACTOR);
    return onDisk;
  }

  it("imports into a database from its own thread and connection", async () => {
    const onDisk = await reachableDatabase();
    const phases = new Set<string>();
    const result = await runImport(onDisk, { catalogId: "team", actor: ACTOR, text: JSON.stringify(labelledSet(6_000)) }, (progress) =>
      phases.add(progress.phase),
    );
    expect(result.created).toHaveLength(6_000);
    expect(phases).toEqual(new Set(["reading", "validating", "writing"]));
    expect(await listTools(onDisk, "team")).toHaveLength(BUILTIN_TOOLS.length + 6_000);
    // Its errors arrive as the same typed errors.
    const error = await runImport(onDisk, { catalogId: "nope", actor: ACTOR, document: labelledSet(1) }).catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(ToolshedError);
    expect(error).toMatchObject({ code: "not_found", message: 'Catalog "nope" not found.' });
  });

  it("stops the moment it is idle after a large document, and waits a while after a small one", async () => {
    const onDisk = await reachableDatabase();
    await stopImportWorker();
    await runImport(onDisk, { catalogId: "team", actor: ACTOR, text: JSON.stringify(labelledSet(20)) });
    expect(importWorkerRunning()).toBe(true);
    const large = JSON.stringify(labelledSet(6_000));
    expect(large.length).toBeGreaterThan(1024 * 1024);
    await runImport(onDisk, { catalogId: "team", actor: ACTOR, text: large });
    expect(importWorkerRunning()).toBe(false);
    // The next import starts a worker again.
    const result = await runImport(onDisk, { catalogId: "team", actor: ACTOR, text: JSON.stringify(labelledSet(20)) });
    expect(result.unchanged).toHaveLength(20);
    expect(importWorkerRunning()).toBe(true);
  });
});

describe("migration 0005", () => {
  // A SQLite migration of a SQLite file.
  it.skipIf(usesPostgres())("moves each conversation's tool history from its JSON array to rows, in order", async () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), "toolshed-migrations-"));
    cpSync("db/migrations", folder, { recursive: true });
    const journalFile = path.join(folder, "meta", "_journal.json");
    const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: { tag: string }[] };
    writeFileSync(journalFile, JSON.stringify({ ...journal, entries: journal.entries.filter((entry) => entry.tag < "0005") }));
    const file = path.join(folder, "old.db");
    const sqlite = new Database(file);
    migrate(drizzle(sqlite), { migrationsFolder: folder });
    sqlite.exec(`INSERT INTO catalogs (id, name) VALUES ('team', 'Team');
      INSERT INTO conversations (id, catalog_id, model, agent, history) VALUES ('c1', 'team', 'm', 'a', '["read","github_create_issue","grep"]'), ('c2', 'team', 'm', 'a', '[]');`);
    sqlite.close();
    const upgraded = migrateDatabase(file);
    expect((await getConversation(upgraded, "c1")).history).toEqual(["read", "github_create_issue", "grep"]);
    expect((await getConversation(upgraded, "c2")).history).toEqual([]);
  });
});
