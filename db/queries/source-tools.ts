import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import { deletingTools } from "@/lib/rules/tool-references";
import {
  type ListingState,
  planSync,
  type SourceDefinition,
  type SourceListing,
  type SourceSyncResult,
  type StoredSourceTool,
  type SyncPlan,
} from "@/lib/sources/sync-plan";
import { isPinnedSource } from "@/lib/tools/pinning";
import { catalogNorms } from "@/lib/tools/poisoning";
import type { ToolSource } from "@/lib/tools/types";
import { chunkedInsert, chunkedUpdate, chunksOf } from "../chunks";
import { readTransaction, writeTransaction, type Db } from "../client";
import { tools } from "../tables";
import { recordManyChanges, type ChangeEntry, type Tx } from "./audit";
import { catalogFingerprint } from "./guards";
import { rewriteToolReferences } from "./tools";

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

/** The definition a listing gives a tool, as the raw columns chunkedInsert and chunkedUpdate write. */
const DEFINITION_COLUMNS = ["summary", "description", "input_schema", "tags", "source_tags", "meta"];

function definitionValues(values: SourceDefinition): unknown[] {
  const { summary, description, inputSchema, tags, sourceTags, meta } = values;
  return [summary, description, JSON.stringify(inputSchema), JSON.stringify(tags), JSON.stringify(sourceTags), meta && JSON.stringify(meta)];
}

/** The columns a sync gives a new tool (the others take their defaults: enabled, registered, no requirements). */
const INSERT_COLUMNS = ["catalog_id", "name", "source", "source_ref", ...DEFINITION_COLUMNS, "approved_definition"];

/** What a sync sets on a listed tool it already has. */
const UPDATE_COLUMNS = [...DEFINITION_COLUMNS, "registered", "updated_at"];

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

/** What a sync will write (lib/sources/sync-plan.ts), worked out from the catalog in the state `fingerprint` names. */
interface CatalogSyncPlan extends SyncPlan {
  catalogId: string;
  fingerprint: string;
}

/** The catalog's side of one listing: its tools of the listed names, the source's registered tools, whether it has any of them. */
async function listingState(tx: Tx, catalogId: string, listing: SourceListing): Promise<ListingState> {
  const { source, sourceRef, drafts } = listing;
  const stored = new Map<string, StoredSourceTool>();
  for (const names of chunksOf(drafts.map((draft) => draft.name))) {
    for (const row of await tx
      .select(STORED_COLUMNS)
      .from(tools)
      .where(and(eq(tools.catalogId, catalogId), inArray(tools.name, names))))
      stored.set(row.name, row);
  }
  const hasTools = await hasToolsOf(tx, catalogId, source, sourceRef);
  return {
    listing,
    stored,
    registered: await registeredToolsOf(tx, catalogId, source, sourceRef),
    hasTools,
    // Only a pinned source's first listing approves tools, after a check of their text against the catalog's.
    norms: isPinnedSource(source) && !hasTools && drafts.length > 0 ? await normsWith(tx, catalogId, drafts) : undefined,
  };
}

/** The catalog's description norms (lib/tools/poisoning.ts) with these drafts among its tools. */
async function normsWith(tx: Tx, catalogId: string, drafts: readonly { name: string; description: string }[]) {
  const catalogTools = await tx.select({ name: tools.name, description: tools.description }).from(tools).where(eq(tools.catalogId, catalogId));
  return catalogNorms([...catalogTools, ...drafts]);
}

/** Reads the catalog and works a sync of these listings out against it as it is (see planSync). Reads only, inside the caller's transaction. */
async function planCatalogSync(tx: Tx, catalogId: string, listings: SourceListing[]): Promise<CatalogSyncPlan> {
  const fingerprint = await catalogFingerprint(tx, catalogId);
  const states: ListingState[] = [];
  for (const listing of listings) states.push(await listingState(tx, catalogId, listing));
  return { catalogId, fingerprint, ...planSync(states) };
}

/**
 * Makes the catalog's tools from each listed source exactly what it lists now (see planSync,
 * lib/sources/sync-plan.ts), in one revision for the lot (a reload of every plugin and the skills is one).
 * Worked out before the write lock is taken (a source may list 50,000 tools, and most syncs, such
 * as each minute's of every MCP server, change nothing: those never take it), and worked out
 * again under the lock if the catalog changed meanwhile.
 */
export async function syncSourceTools(db: Db, catalogId: string, listings: SourceListing[], actor: string): Promise<SourceSyncResult> {
  const plan = await readTransaction(db, (tx) => planCatalogSync(tx, catalogId, listings));
  if (plan.entries.length === 0) return plan.result;
  return writeTransaction(db, async (tx) => {
    const current = (await catalogFingerprint(tx, catalogId)) === plan.fingerprint ? plan : await planCatalogSync(tx, catalogId, listings);
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
  const plan = await planCatalogSync(tx, catalogId, listings);
  await writePlan(tx, plan);
  return plan;
}

/** Writes a plan; its caller holds the write lock (`tx`) and records its entries. */
async function writePlan(tx: Tx, plan: CatalogSyncPlan): Promise<void> {
  await chunkedInsert(
    tx,
    "tools",
    INSERT_COLUMNS,
    plan.inserts.map(({ name, source, sourceRef, values, approvedDefinition }) => [
      plan.catalogId,
      name,
      source,
      sourceRef,
      ...definitionValues(values),
      approvedDefinition && JSON.stringify(approvedDefinition),
    ]),
  );
  const updatedAt = new Date();
  await chunkedUpdate(
    tx,
    "tools",
    "id",
    UPDATE_COLUMNS,
    plan.updates.map(({ id, values }) => [id, ...definitionValues(values), true, updatedAt]),
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
