import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reloadLocalSources, syncLocalSources } from "@/app/_services/local-sources";
import * as exportRoute from "@/app/api/catalogs/[catalog]/export/route";
import * as importJobRoute from "@/app/api/catalogs/[catalog]/import-jobs/[id]/route";
import * as importRoute from "@/app/api/catalogs/[catalog]/import/route";
import * as catalogsRoute from "@/app/api/catalogs/route";
import { migrateDatabase, type Db } from "@/db/client";
import { usesPostgres } from "@/db/dialect";
import { stopImportWorker } from "@/db/import-runner";
import { getCatalog } from "@/db/queries/catalogs";
import { syncSourceTools } from "@/db/queries/source-tools";
import { importTools, updateTool } from "@/db/queries/tools";
import { seed } from "@/db/seed";
import type { CatalogExport } from "@/lib/catalogs/exchange";
import { apiRequest, createTestToken, jsonRequest, params, useFreshDatabase } from "./helpers";

const REPO_SOURCES = { TOOLSHED_PLUGINS_DIR: "plugins", TOOLSHED_SKILLS_DIR: "skills", TOOLSHED_AGENTS_DIR: "agents" };
const NOTES_TOOL = {
  name: "notes__search",
  summary: "Search the notes.",
  description: "Searches the notes.",
  inputSchema: { type: "object" as const, properties: { q: { type: "string" } } },
  tags: [],
};

/** The default token, or one of the database file's. */
let auth: Record<string, string> = {};

async function exportOf(catalog: string): Promise<CatalogExport> {
  return (await exportRoute.GET(apiRequest(`/api/catalogs/${catalog}/export`, { headers: auth }), params({ catalog }))).json();
}

/** Posts an import; a job (202) is followed to its result, so both paths answer alike here. */
async function importInto(catalog: string, document: unknown): Promise<{ status: number; result: Record<string, unknown>; job: boolean }> {
  const response = await importRoute.POST(jsonRequest("POST", document, auth), params({ catalog }));
  const body = await response.json();
  if (response.status !== 202) return { status: response.status, result: body, job: false };
  for (;;) {
    const id = body.job.url.split("/").at(-1);
    const job = await (await importJobRoute.GET(apiRequest(body.job.url, { headers: auth }), params({ catalog, id }))).json();
    if (job.job.status !== "running") return { status: job.job.status === "done" ? 200 : 400, result: job.job.result ?? job.job.error, job: true };
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const names = (document: CatalogExport, keep: (tool: CatalogExport["tools"][number]) => boolean = () => true) =>
  document.tools.filter(keep).map((tool) => tool.name);
const byName = (tools: CatalogExport["tools"]) => [...tools].sort((a, b) => a.name.localeCompare(b.name));

beforeAll(async () => {
  await reloadLocalSources({ ...process.env, ...REPO_SOURCES });
});
afterAll(async () => {
  await stopImportWorker();
  await reloadLocalSources();
});

describe.each([
  { path: "in memory, answered at once", file: false, extraTools: 0 },
  { path: "on a database file, large enough to be a job of the import worker", file: true, extraTools: 1_100 },
])("exporting the demo catalog and importing it ($path)", ({ file, extraTools }) => {
  let db: Db;
  beforeAll(async () => {
    db = await useFreshDatabase();
    auth = {};
    // On PostgreSQL the test's database is one the import worker reaches already.
    if (file && !usesPostgres()) {
      db = migrateDatabase(path.join(mkdtempSync(path.join(os.tmpdir(), "toolshed-export-import-")), "toolshed.db"));
      (globalThis as { toolshedDb?: Db }).toolshedDb = db;
      // The default token lives in the in-memory database: the file needs one of its own.
      auth = { authorization: `Bearer ${await createTestToken(db, "admin", "tests")}` };
    }
    await seed(db, { demo: true });
    await syncLocalSources(db, "demo");
    // What the demo's MCP server lists once it runs (not started here).
    await syncSourceTools(db, "demo", [{ source: "mcp", sourceRef: "notes", drafts: [NOTES_TOOL] }], "test");
    await updateTool(db, "demo", "changelog_draft", { enabled: false }, "test");
    await updateTool(db, "demo", "bash", { enabled: false, tags: ["shell"] }, "test");
    if (extraTools) {
      const tools = Array.from({ length: extraTools }, (_, index) => ({
        name: `extra_${index}`,
        summary: `Extra ${index}.`,
        description: "",
        inputSchema: { type: "object" as const },
      }));
      await importTools(db, "demo", tools, "test");
    }
  });

  it("imports back into its own catalog as all unchanged, at the same revision", async () => {
    const exported = await exportOf("demo");
    expect(names(exported, (tool) => tool.source === "plugin")).toContain("changelog_draft");
    const revision = (await getCatalog(db, "demo")).revision;
    const { status, result, job } = await importInto("demo", exported);
    expect(status).toBe(200);
    expect(job).toBe(extraTools > 0);
    expect(result).toEqual({ created: [], updated: [], unchanged: names(exported), skipped: [], revision });
    expect({ ...(await exportOf("demo")), exportedAt: exported.exportedAt }).toEqual(exported);
  });

  it("imports into a new catalog: custom tools created, source tools matched (state taken), the MCP server's tools skipped with the reason", async () => {
    const exported = await exportOf("demo");
    expect((await catalogsRoute.POST(jsonRequest("POST", { name: "Copy" }, auth))).status).toBe(201);
    const { status, result, job } = await importInto("copy", exported);
    expect(status).toBe(200);
    expect(job).toBe(extraTools > 0);
    expect(result.created).toEqual(names(exported, (tool) => tool.source === "custom"));
    expect(result.skipped).toEqual([{ name: "notes__search", reason: expect.stringContaining("mcp source") }]);
    expect(result.updated).toEqual(["bash", "changelog_draft"]);
    const copy = await exportOf("copy");
    expect(byName(copy.tools)).toEqual(byName(exported.tools.filter((tool) => tool.source !== "mcp")));
    // And the copy goes back into itself unchanged.
    expect((await importInto("copy", copy)).result).toMatchObject({ created: [], updated: [], skipped: [] });
  });
});
