import { describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { runImportJob } from "@/db/import-job";
import { createCatalog, getCatalog } from "@/db/queries/catalogs";
import { syncSourceTools } from "@/db/queries/source-tools";
import type { SourceToolDraft } from "@/lib/sources/sync-plan";
import { createCustomTool, listTools, updateTool } from "@/db/queries/tools";
import { buildExport, type CatalogExport } from "@/lib/catalogs/exchange";
import { BUILTIN_TOOLS } from "@/lib/tools/builtin";
import { freshDatabase } from "../support/fresh-database";

const ACTOR = "test";
const RUNS = 30;

/** A deterministic generator (mulberry32), so a failing run names a seed that replays it. */
function random(seed: number) {
  let state = seed >>> 0;
  const below = (n: number) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) % n;
  };
  const pick = <T>(items: readonly T[]): T => items[below(items.length)];
  const chance = (percent: number) => below(100) < percent;
  return { below, pick, chance };
}
type Random = ReturnType<typeof random>;

// Text a person or a server writes: accents, other scripts, emoji (surrogate pairs), quotes, line breaks.
const WORDS = [
  "search",
  "tickets",
  "café",
  "naïve",
  "日本語",
  "данные",
  "🚀",
  '"quoted"',
  "back\\slash",
  "a\tb",
  "line\nbreak",
  "<tag>",
  "100%",
  "{json}",
  "ﬁle",
];
const TAGS = ["support", "billing", "v1.2", "ops_team", "x-y", "0day"];

function text(rnd: Random, words: number): string {
  return Array.from({ length: 1 + rnd.below(words) }, () => rnd.pick(WORDS)).join(" ");
}

function schema(rnd: Random): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const count = rnd.below(5);
  for (let index = 0; index < count; index++) {
    const kind = rnd.pick(["string", "integer", "boolean", "array", "object", "enum"]);
    const property: Record<string, unknown> =
      kind === "enum"
        ? { type: "string", enum: ["a", "b", text(rnd, 2)] }
        : kind === "array"
          ? { type: "array", items: { type: "string" } }
          : kind === "object"
            ? { type: "object", properties: { inner: { type: "number", minimum: 0 } } }
            : { type: kind };
    if (rnd.chance(50)) property.description = text(rnd, 6);
    properties[`p${index}_${rnd.pick(["id", "query", "läge", "limit"])}`] = property;
  }
  const names = Object.keys(properties);
  return { type: "object", properties, ...(names.length && rnd.chance(60) ? { required: names.filter(() => rnd.chance(50)) } : {}) };
}

function tags(rnd: Random): string[] {
  return [...new Set(Array.from({ length: rnd.below(4) }, () => rnd.pick(TAGS)))];
}

function sourceTools(rnd: Random, prefix: string): SourceToolDraft[] {
  return Array.from({ length: rnd.below(4) }, (_, index) => ({
    name: `${prefix}_${index}`,
    summary: text(rnd, 8).slice(0, 200).trim() || "Does it.",
    description: text(rnd, 30),
    inputSchema: schema(rnd) as SourceToolDraft["inputSchema"],
    tags: tags(rnd),
  }));
}

/** A catalog as people leave them: custom tools, built-ins and source tools disabled or retagged, an MCP server only this catalog has. */
async function randomCatalog(db: Db, rnd: Random): Promise<void> {
  await syncSourceTools(db, "origin", [{ source: "mcp", sourceRef: "notes", drafts: sourceTools(rnd, "notes__tool") }], ACTOR);
  const customCount = rnd.below(12);
  for (let index = 0; index < customCount; index++) {
    await createCustomTool(
      db,
      "origin",
      {
        name: `c${index}_${rnd.pick(["lookup", "create-item", "Search", "x"])}`,
        summary: text(rnd, 8).slice(0, 200).trim() || "Does it.",
        description: rnd.chance(10) ? "" : text(rnd, 40),
        inputSchema: schema(rnd),
        tags: tags(rnd),
        enabled: rnd.chance(80),
      },
      ACTOR,
    );
  }
  for (const tool of await listTools(db, "origin")) {
    if (tool.source === "custom") continue;
    if (rnd.chance(20)) await updateTool(db, "origin", tool.name, { enabled: false }, ACTOR);
    // Tags a person may change on a built-in (a source's own tools get theirs from the source).
    if (tool.source === "builtin" && rnd.chance(15)) await updateTool(db, "origin", tool.name, { tags: tags(rnd) }, ACTOR);
  }
}

/** The document as a file holds it: JSON text. */
const asFile = (document: CatalogExport) => JSON.stringify(document);
const exportOf = async (db: Db, catalogId: string, at: Date) => buildExport(await getCatalog(db, catalogId), await listTools(db, catalogId), at);
const byName = (tools: CatalogExport["tools"]) => [...tools].sort((a, b) => a.name.localeCompare(b.name));

describe("export → import → export", () => {
  it.each(Array.from({ length: RUNS }, (_, seed) => seed + 1))("is the same catalog again (seed %i)", async (seed) => {
    const rnd = random(seed);
    const db = await freshDatabase();
    const plugin = sourceTools(rnd, "plugin_tool");
    const skills = sourceTools(rnd, "skill_tool");
    // The local plugins and skills are in every catalog; the MCP server only in the exported one.
    for (const id of ["origin", "copy"]) {
      await createCatalog(db, { name: id, id }, ACTOR);
      await syncSourceTools(db, id, [{ source: "plugin", sourceRef: "example-plugin.mjs", drafts: plugin }], ACTOR);
      await syncSourceTools(db, id, [{ source: "skill", sourceRef: "skills", drafts: skills }], ACTOR);
    }
    await randomCatalog(db, rnd);
    const exported = await exportOf(db, "origin", new Date(1));
    const origin = exported.tools;
    const mcpTools = origin.filter((tool) => tool.source === "mcp").map((tool) => tool.name);

    // Back into its own catalog: nothing to do.
    const revision = (await getCatalog(db, "origin")).revision;
    const again = await runImportJob(db, { catalogId: "origin", actor: ACTOR, text: asFile(exported) });
    expect(again).toEqual({ created: [], updated: [], unchanged: origin.map((tool) => tool.name), skipped: [], revision });
    expect(await exportOf(db, "origin", new Date(2))).toEqual({ ...exported, exportedAt: new Date(2).toISOString() });

    // Into another catalog: everything but the tools of the MCP server it does not have.
    const copied = await runImportJob(db, { catalogId: "copy", actor: ACTOR, text: asFile(exported) });
    expect(copied.created).toEqual(origin.filter((tool) => tool.source === "custom").map((tool) => tool.name));
    expect(copied.skipped.map((skipped) => skipped.name)).toEqual(mcpTools);
    for (const skipped of copied.skipped) expect(skipped.reason).toMatch(/mcp/);
    const copy = await exportOf(db, "copy", new Date(3));
    expect(byName(copy.tools)).toEqual(byName(origin.filter((tool) => tool.source !== "mcp")));
    expect(copy.tools.length).toBe(BUILTIN_TOOLS.length + plugin.length + skills.length + copied.created.length);

    // And that copy back into itself is unchanged too.
    const copyRevision = (await getCatalog(db, "copy")).revision;
    expect(await runImportJob(db, { catalogId: "copy", actor: ACTOR, text: asFile(copy) })).toMatchObject({
      created: [],
      updated: [],
      skipped: [],
      revision: copyRevision,
    });
  });
});
