import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import { deletingTools } from "@/lib/rules/tool-references";
import { isPinnedSource, pinnedDefinitionOf } from "@/lib/tools/pinning";
import { SOURCE_REDEFINE_ACTION, type InputSchema, type ToolMeta, type ToolSource } from "@/lib/tools/types";
import type { FieldError } from "@/lib/tools/validate";
import { chunkedInsert, chunkedUpdate, chunksOf } from "../chunks";
import { readTransaction, writeTransaction, type Db } from "../client";
import { tools } from "../tables";
import type { ToolRow } from "../schema";
import { recordManyChanges, type ChangeEntry, type Tx } from "./audit";
import { catalogFingerprint } from "./guards";
import { rewriteToolReferences } from "./tools";

/** A tool as a source (MCP server, plugin, skill) provides it. */
export interface SourceToolDraft {
  name: string;
  summary: string;
  description: string;
  inputSchema: InputSchema;
  tags: string[];
  meta?: ToolMeta;
}

export interface SourceSyncResult {
  added: string[];
  updated: string[];
  unregistered: string[];
  /** Names another source already uses in this catalog: those tools are not taken over. */
  conflicts: FieldError[];
}

/** What one source (an MCP server, a plugin file, the skills) lists now. */
export interface SourceListing {
  source: SyncedSource;
  sourceRef: string;
  drafts: SourceToolDraft[];
}

type SourceDefinition = Pick<ToolRow, "summary" | "description" | "inputSchema" | "tags" | "sourceTags" | "meta" | "registered">;

/** What a sync reads of the catalog's tools its source lists: enough to compare, not the whole row. */
const STORED_COLUMNS = {
  id: tools.id,
  name: tools.name,
  source: tools.source,
  sourceRef: tools.sourceRef,
  summary: tools.summary,
  description: tools.description,
  inputSchema: tools.inputSchema,
  tags: tools.tags,
  sourceTags: tools.sourceTags,
  meta: tools.meta,
  registered: tools.registered,
};
type StoredSourceTool = Pick<ToolRow, keyof typeof STORED_COLUMNS>;

/** The columns a sync gives a new tool (the others take their defaults: enabled, registered, no requirements). */
const INSERT_COLUMNS = [
  "catalog_id",
  "name",
  "source",
  "source_ref",
  "summary",
  "description",
  "input_schema",
  "tags",
  "source_tags",
  "meta",
  "approved_definition",
];

/** What a sync sets on a listed tool it already has. */
const UPDATE_COLUMNS = ["summary", "description", "input_schema", "tags", "source_tags", "meta", "registered", "updated_at"];

/** A tool as its source defines it, as audit entries record it before and after a sync. */
const definitionOf = (row: SourceDefinition): SourceDefinition => ({
  summary: row.summary,
  description: row.description,
  inputSchema: row.inputSchema,
  tags: row.tags,
  sourceTags: row.sourceTags,
  meta: row.meta ?? null,
  registered: row.registered,
});

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** What only the source decides; tags and registration also change for other reasons (a person, a server going away), and its tags show only through a tool's tags. */
const SOURCE_DEFINED_FIELDS = ["summary", "description", "inputSchema", "meta"] as const;

/** What a sync that rewrites a listed tool records: a redefinition, or only a change of tags or registration. */
function updateAction(before: SourceDefinition, after: SourceDefinition): string {
  if (SOURCE_DEFINED_FIELDS.some((field) => !sameJson(before[field], after[field]))) return SOURCE_REDEFINE_ACTION;
  return before.registered ? "update" : "register";
}

/** The id and name of each registered tool of one source. */
function registeredToolsOf(tx: Tx, catalogId: string, source: ToolSource, sourceRef: string): Promise<{ id: number; name: string }[]> {
  return tx
    .select({ id: tools.id, name: tools.name })
    .from(tools)
    .where(and(eq(tools.catalogId, catalogId), eq(tools.source, source), eq(tools.sourceRef, sourceRef), eq(tools.registered, true)));
}

async function hasToolsOf(tx: Tx, catalogId: string, source: ToolSource, sourceRef: string): Promise<boolean> {
  const rows = await tx
    .select({ id: tools.id })
    .from(tools)
    .where(and(eq(tools.catalogId, catalogId), eq(tools.source, source), eq(tools.sourceRef, sourceRef)))
    .limit(1);
  return rows.length > 0;
}

async function unregister(tx: Tx, rows: { id: number }[]): Promise<void> {
  const updatedAt = new Date();
  for (const chunk of chunksOf(rows))
    await tx
      .update(tools)
      .set({ registered: false, updatedAt })
      .where(
        inArray(
          tools.id,
          chunk.map((row) => row.id),
        ),
      );
}

/** Whether a person made the tool's tags other than its source's (in the editor or by an import): a sync keeps theirs. */
const tagsEditedByPerson = (row: StoredSourceTool) => row.sourceTags !== null && !sameJson(row.tags, row.sourceTags);

type SyncedSource = Extract<ToolSource, "mcp" | "plugin" | "skill">;

/** What a sync will write, worked out from the catalog in the state `fingerprint` names; `entries` has one per written tool. */
interface SyncPlan {
  fingerprint: string;
  /** Rows of INSERT_COLUMNS. */
  inserts: unknown[][];
  updates: { id: number; values: SourceDefinition }[];
  gone: { id: number; name: string }[];
  entries: ChangeEntry[];
  /** The names the plan's new tools take, with their source: another listing's tool of that name is a conflict. */
  claimed: Map<string, SyncedSource>;
  result: SourceSyncResult;
}

/** Works a sync of these listings out against the catalog as it is (see syncSourceTools). Reads only, inside the caller's transaction. */
async function planSync(tx: Tx, catalogId: string, listings: SourceListing[]): Promise<SyncPlan> {
  const plan: SyncPlan = {
    fingerprint: await catalogFingerprint(tx, catalogId),
    inserts: [],
    updates: [],
    gone: [],
    entries: [],
    claimed: new Map(),
    result: { added: [], updated: [], unregistered: [], conflicts: [] },
  };
  for (const listing of listings) await planListing(tx, catalogId, listing, plan);
  return plan;
}

const conflictWith = (name: string, source: ToolSource): FieldError => ({
  field: name,
  message: `"${name}" already exists in this catalog as a ${source} tool; this one is left out.`,
});

/** Adds one source's listing to the plan. */
async function planListing(tx: Tx, catalogId: string, { source, sourceRef, drafts }: SourceListing, plan: SyncPlan): Promise<void> {
  const { result, entries } = plan;
  // A pinned source's first listing is approved by it, i.e. by whoever added the source (lib/tools/pinning.ts).
  const firstListing = isPinnedSource(source) && !(await hasToolsOf(tx, catalogId, source, sourceRef));
  const byName = new Map<string, StoredSourceTool>();
  for (const names of chunksOf(drafts.map((draft) => draft.name))) {
    for (const row of await tx
      .select(STORED_COLUMNS)
      .from(tools)
      .where(and(eq(tools.catalogId, catalogId), inArray(tools.name, names))))
      byName.set(row.name, row);
  }
  for (const draft of drafts) {
    const claimant = plan.claimed.get(draft.name);
    if (claimant) {
      result.conflicts.push(conflictWith(draft.name, claimant));
      continue;
    }
    const row = byName.get(draft.name);
    const tags = row && tagsEditedByPerson(row) ? row.tags : draft.tags;
    const values = {
      summary: draft.summary,
      description: draft.description,
      inputSchema: draft.inputSchema,
      tags,
      sourceTags: draft.tags,
      meta: draft.meta ?? null,
      registered: true,
    };
    if (!row) {
      plan.inserts.push([
        catalogId,
        draft.name,
        source,
        sourceRef,
        values.summary,
        values.description,
        JSON.stringify(values.inputSchema),
        JSON.stringify(values.tags),
        JSON.stringify(values.sourceTags),
        values.meta && JSON.stringify(values.meta),
        firstListing ? JSON.stringify(pinnedDefinitionOf(values)) : null,
      ]);
      result.added.push(draft.name);
      plan.claimed.set(draft.name, source);
      entries.push({ subjectKind: "tool", subject: draft.name, action: "register", after: { source, sourceRef, ...values } });
    } else if (row.source !== source || row.sourceRef !== sourceRef) {
      result.conflicts.push(conflictWith(draft.name, row.source));
    } else if (!sameJson(definitionOf(row), definitionOf(values))) {
      plan.updates.push({ id: row.id, values });
      result.updated.push(draft.name);
      const [before, after] = [definitionOf(row), definitionOf(values)];
      entries.push({ subjectKind: "tool", subject: draft.name, action: updateAction(before, after), before, after });
    }
  }
  const listed = new Set(drafts.map((draft) => draft.name));
  const gone = (await registeredToolsOf(tx, catalogId, source, sourceRef)).filter((row) => !listed.has(row.name));
  for (const row of gone) {
    plan.gone.push(row);
    result.unregistered.push(row.name);
    entries.push({ subjectKind: "tool", subject: row.name, action: "unregister", before: { registered: true }, after: { registered: false } });
  }
}

/**
 * Makes the catalog's tools from each listed source exactly what it lists now: new tools are added
 * (enabled), listed ones updated and registered again, the ones it no longer lists kept with their
 * history but unregistered. Enabled state stays the catalog's choice, and so do tags a person
 * changed; other tags follow the source's (see tagsEditedByPerson). One revision for the lot
 * (a reload of every plugin and the skills is one); a name one listing takes is a conflict for the next.
 * Worked out before the write lock is taken (a source may list 50,000 tools, and most syncs, such
 * as each minute's of every MCP server, change nothing: those never take it), and worked out
 * again under the lock if the catalog changed meanwhile.
 */
export async function syncSourceTools(db: Db, catalogId: string, listings: SourceListing[], actor: string): Promise<SourceSyncResult> {
  const plan = await readTransaction(db, (tx) => planSync(tx, catalogId, listings));
  if (plan.entries.length === 0) return plan.result;
  return writeTransaction(db, async (tx) => {
    const current = (await catalogFingerprint(tx, catalogId)) === plan.fingerprint ? plan : await planSync(tx, catalogId, listings);
    if (current.entries.length === 0) return current.result;
    // The revision first: see writeImport (db/queries/tool-import.ts).
    await recordManyChanges(tx, catalogId, actor, current.entries);
    await writePlan(tx, current);
    return current.result;
  });
}

/**
 * Syncs these listings inside the caller's write transaction, as part of its change (e.g. adding
 * the MCP server that listed them): returns the result and the audit entries for it to record.
 */
export async function writeSourceListings(tx: Tx, catalogId: string, listings: SourceListing[]): Promise<{ result: SourceSyncResult; entries: ChangeEntry[] }> {
  const plan = await planSync(tx, catalogId, listings);
  await writePlan(tx, plan);
  return plan;
}

/** Writes a plan; its caller holds the write lock (`tx`) and records its entries. */
async function writePlan(tx: Tx, plan: SyncPlan): Promise<void> {
  await chunkedInsert(tx, "tools", INSERT_COLUMNS, plan.inserts);
  const updatedAt = new Date();
  await chunkedUpdate(
    tx,
    "tools",
    "id",
    UPDATE_COLUMNS,
    plan.updates.map(({ id, values }) => [
      id,
      values.summary,
      values.description,
      JSON.stringify(values.inputSchema),
      JSON.stringify(values.tags),
      JSON.stringify(values.sourceTags),
      values.meta && JSON.stringify(values.meta),
      true,
      updatedAt,
    ]),
  );
  await unregister(tx, plan.gone);
}

/**
 * Deletes every tool of one source (the source itself was removed), and with them what names them
 * (agents, model rules, overrides: see rewriteToolReferences), in one revision; their audit history stays.
 */
export async function deleteSourceTools(db: Db, catalogId: string, source: ToolSource, sourceRef: string, actor: string): Promise<string[]> {
  return writeTransaction(db, async (tx) => {
    const rows = await tx
      .select({ id: tools.id, name: tools.name })
      .from(tools)
      .where(and(eq(tools.catalogId, catalogId), eq(tools.source, source), eq(tools.sourceRef, sourceRef)));
    if (rows.length === 0) return [];
    for (const chunk of chunksOf(rows))
      await tx.delete(tools).where(
        inArray(
          tools.id,
          chunk.map((row) => row.id),
        ),
      );
    const names = rows.map((row) => row.name);
    const deletions = names.map((name) => ({ subjectKind: "tool" as const, subject: name, action: "delete", before: { source, sourceRef } }));
    const { entries } = await rewriteToolReferences(tx, catalogId, deletingTools(names));
    await recordManyChanges(tx, catalogId, actor, [...deletions, ...entries]);
    return names;
  });
}

/** The source refs a catalog has tools from, for one source kind. */
export async function sourceRefsOf(db: Db, catalogId: string, source: ToolSource): Promise<string[]> {
  const rows = await db
    .selectDistinct({ ref: tools.sourceRef })
    .from(tools)
    .where(and(eq(tools.catalogId, catalogId), eq(tools.source, source)));
  return rows.flatMap((row) => (row.ref ? [row.ref] : []));
}
