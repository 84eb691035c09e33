import "server-only";
import { and, asc, eq, gt, lt, max } from "drizzle-orm";
import { notFound } from "@/lib/errors";
import { patchedArray, type ToolEdit } from "@/lib/pipeline/tool-edits";
import type { CatalogState } from "@/lib/pipeline/tool-list";
import { type Db, readTransaction } from "../client";
import { catalogs, toolDeletions, tools } from "../tables";
import { listAgents } from "./agents";
import { rulesOfCatalog } from "./rules";
import { type ToolRecord, toToolRecord } from "./tools";

/**
 * What identifies one state of a catalog: its revision, which every change bumps together with
 * `updatedAt` (db/queries/audit.ts), and its creation time, so a catalog deleted and created again
 * under the same id does not pass for the old one.
 */
function versionOf(row: { revision: number; updatedAt: Date; createdAt: Date }): string {
  return `${row.revision}/${row.updatedAt.getTime()}/${row.createdAt.getTime()}`;
}

/**
 * The catalog's current version, in one indexed read of one row: what a cached state is checked
 * against before it is reused. A missing catalog is the usual 404.
 */
export async function catalogVersion(db: Db, catalogId: string): Promise<string> {
  const [row] = await db
    .select({ revision: catalogs.revision, updatedAt: catalogs.updatedAt, createdAt: catalogs.createdAt })
    .from(catalogs)
    .where(eq(catalogs.id, catalogId));
  if (!row) throw notFound(`Catalog "${catalogId}"`, "catalog");
  return versionOf(row);
}

/** Everything the pipeline reads about one catalog, with its version and what a later read catches up from. */
export interface LoadedCatalogState extends CatalogState {
  revision: number;
  version: string;
  /** The catalog's creation time: a state of a catalog created again under the same id is never caught up from. */
  createdAt: number;
  /** Every tool write of the catalog up to this row version is in `tools` (the triggers of migration tool_row_versions). */
  toolsVersion: number;
  /** Each tool's row id, in the order of `tools`. */
  toolIds: readonly number[];
  tools: ToolRecord[];
  /** When this instance read it (its clock): the deletions a later read catches up with must still be kept. */
  readAt: number;
}

/** How long a deletion is remembered (the retention job forgets older ones). */
const TOOL_DELETIONS_KEPT_MS = 24 * 60 * 60 * 1000;
/** A state read longer ago than this is read whole again, well within the deletions kept, whatever the clocks. */
const CATCH_UP_WITHIN_MS = TOOL_DELETIONS_KEPT_MS / 2;

/**
 * The catalog as the pipeline reads it, in one transaction so it is consistent. Given an earlier
 * state of the same catalog, only the tools written or deleted since it are read; every other tool
 * keeps its object, so whatever was derived from it (its candidate, its final definition, its
 * tokens, its index entry) is reused. The result equals a whole read.
 */
export async function loadCatalogState(db: Db, catalogId: string, earlier?: LoadedCatalogState): Promise<LoadedCatalogState> {
  const readAt = Date.now();
  return readTransaction(db, async (tx) => {
    const [row] = await tx
      .select({ revision: catalogs.revision, updatedAt: catalogs.updatedAt, createdAt: catalogs.createdAt })
      .from(catalogs)
      .where(eq(catalogs.id, catalogId));
    if (!row) throw notFound(`Catalog "${catalogId}"`, "catalog");
    const catchUp =
      earlier !== undefined && earlier.catalogId === catalogId && earlier.createdAt === row.createdAt.getTime() && readAt - earlier.readAt < CATCH_UP_WITHIN_MS;
    const toolsRead = catchUp ? await toolsSince(tx, catalogId, earlier) : await allTools(tx, catalogId);
    return {
      catalogId,
      revision: row.revision,
      version: versionOf(row),
      createdAt: row.createdAt.getTime(),
      readAt,
      ...toolsRead,
      rules: await rulesOfCatalog(tx, catalogId),
      agents: await listAgents(tx, catalogId),
    };
  });
}

type ToolsRead = Pick<LoadedCatalogState, "tools" | "toolIds" | "toolsVersion">;

async function allTools(tx: Db, catalogId: string): Promise<ToolsRead> {
  const rows = await tx.select().from(tools).where(eq(tools.catalogId, catalogId)).orderBy(asc(tools.id));
  // Deletions past the newest row need no catching up: those tools are not in this read.
  const [deleted] = await tx
    .select({ version: max(toolDeletions.rowVersion) })
    .from(toolDeletions)
    .where(eq(toolDeletions.catalogId, catalogId));
  return {
    tools: rows.map(toToolRecord),
    toolIds: rows.map((each) => each.id),
    toolsVersion: highest(deleted?.version ?? 0, rows),
  };
}

/** The highest of `start` and the rows' versions (a loop: a spread of 50,000 arguments may not fit the stack). */
function highest(start: number, rows: readonly { rowVersion: number }[]): number {
  let version = start;
  for (const each of rows) version = Math.max(version, each.rowVersion);
  return version;
}

async function toolsSince(tx: Db, catalogId: string, earlier: LoadedCatalogState): Promise<ToolsRead> {
  const written = await tx
    .select()
    .from(tools)
    .where(and(eq(tools.catalogId, catalogId), gt(tools.rowVersion, earlier.toolsVersion)))
    .orderBy(asc(tools.id));
  const deleted = await tx
    .select({ toolId: toolDeletions.toolId, version: toolDeletions.rowVersion })
    .from(toolDeletions)
    .where(and(eq(toolDeletions.catalogId, catalogId), gt(toolDeletions.rowVersion, earlier.toolsVersion)));
  if (written.length === 0 && deleted.length === 0) return { tools: earlier.tools, toolIds: earlier.toolIds, toolsVersion: earlier.toolsVersion };
  // Rows are in id order: each row written or deleted is an edit of the earlier tools at the place
  // binary search finds, so a catch-up costs the changes and one copy of the catalog. A row written
  // again after its deletion (an undo puts rows back with their ids) is there again.
  const writtenById = new Map(written.map((each) => [each.id, each]));
  const changedIds = [...new Set([...writtenById.keys(), ...deleted.map((each) => each.toolId)])].sort((a, b) => a - b);
  const edits: ToolEdit<ToolRecord>[] = [];
  const insertedIds: number[][] = [];
  let cursor = 0;
  for (const id of changedIds) {
    const at = firstAtLeast(earlier.toolIds, id, cursor);
    const removed = earlier.toolIds[at] === id ? 1 : 0;
    const row = writtenById.get(id);
    edits.push({ from: at, removed, inserted: row === undefined ? [] : [toToolRecord(row)] });
    insertedIds.push(row === undefined ? [] : [id]);
    cursor = at + removed;
  }
  return {
    tools: patchedArray(
      earlier.tools,
      edits,
      edits.map((edit) => edit.inserted),
    ),
    toolIds: patchedArray(earlier.toolIds, edits, insertedIds),
    toolsVersion: highest(earlier.toolsVersion, [...written, ...deleted.map((each) => ({ rowVersion: each.version }))]),
  };
}

/** The first index from `start` on whose id is at least `id` (ids ascending); their length when none is. */
function firstAtLeast(ids: readonly number[], id: number, start: number): number {
  let [low, high] = [start, ids.length];
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (ids[middle] < id) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Forgets deletions older than TOOL_DELETIONS_KEPT_MS (the retention job); a state older than that is never caught up from. */
export async function deleteOldToolDeletions(db: Db, now = Date.now()): Promise<void> {
  await db.delete(toolDeletions).where(lt(toolDeletions.createdAt, new Date(now - TOOL_DELETIONS_KEPT_MS)));
}
