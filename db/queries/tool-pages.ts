import "server-only";
import { and, count, eq, gt, gte, inArray, max } from "drizzle-orm";
import { notFound } from "@/lib/errors";
import { parseSort, sortTools } from "@/lib/tools/bulk";
import { SOURCE_REDEFINE_ACTION, type ToolSource } from "@/lib/tools/types";
import { type Db, readTransaction } from "../client";
import { auditEntries, catalogs, tools } from "../tables";
import type { Tx } from "./audit";
import { toToolRecord, type ToolRecord } from "./tools";

const TOOL_PAGE_DEFAULT_LIMIT = 100;
const TOOL_PAGE_MAX_LIMIT = 500;
/** How many tags the facet lists, most used first. */
const TAG_FACET_LIMIT = 200;
/** How many catalogs keep a search index in memory (per database), the least recently used going first. */
const CACHED_CATALOGS = 16;
/** Up to this many changed tools since the index was made, it is patched; beyond, made again. */
const PATCH_MAX_CHANGES = 2_000;

type ToolStateFilter = "all" | "enabled" | "disabled";

export interface ToolPageQuery {
  /** Words that must all occur (case-insensitive, as substrings) in the name, summary or tags. */
  q?: string;
  source?: ToolSource;
  state?: ToolStateFilter;
  /** Only tools carrying exactly this tag. */
  tag?: string;
  /** Only tools whose source (MCP server, plugin, skill) changed their definition at or after this time. */
  changedSince?: Date;
  /** Only tools changed at this catalog revision (by one import, say), as its audit entries name them. */
  changedIn?: number;
  /** Where to start: a row offset, or the `nextCursor` of the previous page (the cursor wins). */
  offset?: number;
  cursor?: string;
  limit?: number;
  /** A column to sort by, "-" first for descending (see TOOL_SORT_COLUMNS); by default registration order. */
  sort?: string;
}

/** The filters of a page query: which tools match, whatever the page. */
export type ToolMatchQuery = Pick<ToolPageQuery, "q" | "source" | "state" | "tag" | "changedSince" | "changedIn">;

interface ToolFacets {
  /** Every source in the catalog with its number of tools (the whole catalog, whatever the filters). */
  sources: { source: ToolSource; count: number }[];
  /** The most used tags (at most TAG_FACET_LIMIT) with their number of tools, most used first. */
  tags: { tag: string; count: number }[];
  /** Tools in the catalog. */
  catalogTotal: number;
}

export interface ToolPage {
  tools: ToolRecord[];
  /** Tools matching the filters, over all pages. */
  total: number;
  /** Pass as `cursor` for the next page; absent on the last page. */
  nextCursor?: string;
  facets: ToolFacets;
  /** The catalog revision the page was read at. */
  revision: number;
  /** With `changedSince`: when its source last changed each tool of the page (ISO 8601). */
  sourceChanges?: Record<string, string>;
}

/** What filtering needs of one tool, kept in memory per catalog revision. */
interface IndexEntry {
  id: number;
  name: string;
  summary: string;
  /** Name, summary and tags, lower-cased, one per line. */
  haystack: string;
  source: ToolSource;
  enabled: boolean;
  tags: string[];
}

interface CatalogIndex {
  revision: number;
  createdAt: number;
  /** The last audit entry (of any catalog) the index has seen: the changes after it are still to apply. */
  lastAuditId: number;
  /** In registration (id) order. */
  entries: IndexEntry[];
  facets: ToolFacets;
  /** The entries sorted by a `sort` parameter, made at the first page asked for in that order. */
  sorted?: Map<string, IndexEntry[]>;
}

const indexes = new WeakMap<Db, Map<string, CatalogIndex>>();

/** The words of a search, lower-cased like the haystacks they are looked for in. */
function searchWords(q: string | undefined): string[] {
  return [...new Set((q ?? "").toLowerCase().split(/\s+/).filter(Boolean))];
}

const INDEX_COLUMNS = { id: tools.id, name: tools.name, summary: tools.summary, source: tools.source, enabled: tools.enabled, tags: tools.tags };

type IndexRow = { id: number; name: string; summary: string; source: ToolSource; enabled: boolean; tags: string[] };

function entryOf(row: IndexRow): IndexEntry {
  return {
    id: row.id,
    name: row.name,
    summary: row.summary,
    haystack: `${row.name}\n${row.summary}\n${row.tags.join("\n")}`.toLowerCase(),
    source: row.source,
    enabled: row.enabled,
    tags: row.tags,
  };
}

function facetsOf(entries: IndexEntry[]): ToolFacets {
  const bySource = new Map<ToolSource, number>();
  const byTag = new Map<string, number>();
  for (const entry of entries) {
    bySource.set(entry.source, (bySource.get(entry.source) ?? 0) + 1);
    for (const tag of entry.tags) byTag.set(tag, (byTag.get(tag) ?? 0) + 1);
  }
  const tags = [...byTag]
    .sort(([a, countA], [b, countB]) => countB - countA || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, TAG_FACET_LIMIT)
    .map(([tag, count]) => ({ tag, count }));
  const sources = [...bySource].map(([source, count]) => ({ source, count }));
  return { sources, tags, catalogTotal: entries.length };
}

async function lastAuditId(tx: Tx): Promise<number> {
  const [row] = await tx.select({ id: max(auditEntries.id) }).from(auditEntries);
  return row?.id ?? 0;
}

async function buildIndex(tx: Tx, catalogId: string, revision: number, createdAt: number): Promise<CatalogIndex> {
  const auditId = await lastAuditId(tx);
  // Sorted here, not by SQLite: its plan walks the (catalog, name) index and would sort every row in a temporary b-tree.
  const entries = (await tx.select(INDEX_COLUMNS).from(tools).where(eq(tools.catalogId, catalogId))).map(entryOf).sort((a, b) => a.id - b.id);
  return { revision, createdAt, lastAuditId: auditId, entries, facets: facetsOf(entries) };
}

/**
 * The index brought up to date from the audit entries written since it was made (every change to
 * a tool writes one, named after the tool): the named tools are read again, the ones gone are
 * dropped. Undefined when too much changed, or when the count of tools does not add up (a write
 * that left no audit entry): then the index is made again.
 */
async function patchIndex(tx: Tx, index: CatalogIndex, catalogId: string, revision: number): Promise<CatalogIndex | undefined> {
  const changes = await tx
    .select({ id: auditEntries.id, kind: auditEntries.subjectKind, subject: auditEntries.subject })
    .from(auditEntries)
    .where(and(gt(auditEntries.id, index.lastAuditId), eq(auditEntries.catalogId, catalogId)));
  const names = [...new Set(changes.filter((change) => change.kind === "tool").map((change) => change.subject))];
  if (names.length > PATCH_MAX_CHANGES) return undefined;
  const auditId = Math.max(index.lastAuditId, await lastAuditId(tx));
  const [counted] = (await tx.select({ n: count() }).from(tools).where(eq(tools.catalogId, catalogId))).map((row) => Number(row.n));
  if (names.length === 0) return counted === index.entries.length ? { ...index, revision, lastAuditId: auditId } : undefined;
  const fresh: IndexEntry[] = [];
  for (let start = 0; start < names.length; start += 500) {
    const rows = await tx
      .select(INDEX_COLUMNS)
      .from(tools)
      .where(and(eq(tools.catalogId, catalogId), inArray(tools.name, names.slice(start, start + 500))));
    fresh.push(...rows.map(entryOf));
  }
  // Drop every entry of a named tool (by name: deleted; by id: renamed), then merge the fresh ones in by id.
  const named = new Set(names);
  const freshIds = new Set(fresh.map((entry) => entry.id));
  const kept = index.entries.filter((entry) => !named.has(entry.name) && !freshIds.has(entry.id));
  fresh.sort((a, b) => a.id - b.id);
  const entries: IndexEntry[] = [];
  let next = 0;
  for (const entry of kept) {
    while (next < fresh.length && fresh[next].id < entry.id) entries.push(fresh[next++]);
    entries.push(entry);
  }
  entries.push(...fresh.slice(next));
  if (counted !== entries.length) return undefined;
  return { revision, createdAt: index.createdAt, lastAuditId: auditId, entries, facets: facetsOf(entries) };
}

/**
 * The catalog's search index at its current revision. Every change to a tool bumps the revision and
 * writes an audit entry (db/queries/audit), so the index is reused while the revision stands,
 * patched from the audit entries after a change, and made again when a catalog was deleted and
 * made again under the same id (told apart by its creation time).
 */
function catalogIndex(db: Db, catalogId: string): Promise<CatalogIndex> {
  return readTransaction(db, async (tx) => {
    const [catalog] = await tx.select({ revision: catalogs.revision, createdAt: catalogs.createdAt }).from(catalogs).where(eq(catalogs.id, catalogId));
    if (!catalog) throw notFound(`Catalog "${catalogId}"`, "catalog");
    let cache = indexes.get(db);
    if (!cache) {
      cache = new Map();
      indexes.set(db, cache);
    }
    const createdAt = catalog.createdAt.getTime();
    let index = cache.get(catalogId);
    cache.delete(catalogId);
    if (index && index.createdAt === createdAt && index.revision !== catalog.revision) index = await patchIndex(tx, index, catalogId, catalog.revision);
    if (!index || index.revision !== catalog.revision || index.createdAt !== createdAt) index = await buildIndex(tx, catalogId, catalog.revision, createdAt);
    cache.set(catalogId, index);
    while (cache.size > CACHED_CATALOGS) cache.delete(cache.keys().next().value!);
    return index;
  });
}

/** The tools whose source changed their definition since `since`, each with the time of its last such change. */
async function sourceChangesSince(db: Db, catalogId: string, since: Date): Promise<Map<string, Date>> {
  const rows = await db
    .select({ name: auditEntries.subject, at: max(auditEntries.createdAt) })
    .from(auditEntries)
    .where(
      and(
        eq(auditEntries.catalogId, catalogId),
        eq(auditEntries.subjectKind, "tool"),
        eq(auditEntries.action, SOURCE_REDEFINE_ACTION),
        gte(auditEntries.createdAt, since),
      ),
    )
    .groupBy(auditEntries.subject);
  return new Map(rows.flatMap((row) => (row.at ? [[row.name, row.at] as const] : [])));
}

/** The names of the tools changed at a revision of the catalog: every change to a tool writes an audit entry naming it. */
async function toolsChangedIn(db: Db, catalogId: string, revision: number): Promise<Set<string>> {
  const rows = await db
    .selectDistinct({ name: auditEntries.subject })
    .from(auditEntries)
    .where(and(eq(auditEntries.catalogId, catalogId), eq(auditEntries.subjectKind, "tool"), eq(auditEntries.revision, revision)));
  return new Set(rows.map((row) => row.name));
}

/**
 * `changed`: the tools changed by their source since `query.changedSince`, when it is given;
 * `changedIn`: the tools changed at `query.changedIn`, when it is given.
 */
function matcher(query: ToolPageQuery, changed: Map<string, Date> | undefined, changedIn: Set<string> | undefined): (entry: IndexEntry) => boolean {
  const words = searchWords(query.q);
  const { source, tag } = query;
  const enabled = query.state === "enabled" ? true : query.state === "disabled" ? false : undefined;
  return (entry) =>
    (source === undefined || entry.source === source) &&
    (enabled === undefined || entry.enabled === enabled) &&
    (tag === undefined || entry.tags.includes(tag)) &&
    // A custom tool may carry the name of a source's tool deleted earlier: that history is not its own.
    (changed === undefined || (entry.source !== "custom" && changed.has(entry.name))) &&
    (changedIn === undefined || changedIn.has(entry.name)) &&
    words.every((word) => entry.haystack.includes(word));
}

/** The first position whose id is greater than `id` (entries are in id order). */
function firstAfter(entries: IndexEntry[], id: number): number {
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (entries[middle].id <= id) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The catalog's entries in the order `sort` names (registration order without one), kept with the index. */
function orderedEntries(index: CatalogIndex, sort: string | undefined): IndexEntry[] {
  const key = parseSort(sort);
  if (!key) return index.entries;
  index.sorted ??= new Map();
  let sorted = index.sorted.get(sort!);
  if (!sorted) {
    sorted = sortTools(index.entries, key);
    index.sorted.set(sort!, sorted);
  }
  return sorted;
}

interface Matches {
  index: CatalogIndex;
  matching: IndexEntry[];
  changed: Map<string, Date> | undefined;
}

async function matchingEntries(db: Db, catalogId: string, query: ToolMatchQuery & { sort?: string }): Promise<Matches> {
  const index = await catalogIndex(db, catalogId);
  const changed = query.changedSince === undefined ? undefined : await sourceChangesSince(db, catalogId, query.changedSince);
  const changedIn = query.changedIn === undefined ? undefined : await toolsChangedIn(db, catalogId, query.changedIn);
  return { index, matching: orderedEntries(index, query.sort).filter(matcher(query, changed, changedIn)), changed };
}

/** The names of every tool matching the filters, in registration order: what "select all matching" selects. */
export async function matchingToolNames(db: Db, catalogId: string, query: ToolMatchQuery): Promise<string[]> {
  return (await matchingEntries(db, catalogId, query)).matching.map((entry) => entry.name);
}

/** Where a page starts: after the cursor's tool (by position when sorted), else at the offset. */
function pageStart(matching: IndexEntry[], query: ToolPageQuery): number {
  const cursor = query.cursor === undefined ? undefined : Number(query.cursor);
  if (cursor === undefined || !Number.isSafeInteger(cursor)) return Math.max(0, Math.floor(query.offset ?? 0));
  if (!parseSort(query.sort)) return firstAfter(matching, cursor);
  const at = matching.findIndex((entry) => entry.id === cursor);
  return at === -1 ? matching.length : at + 1;
}

/**
 * One page of a catalog's tools in registration order (or sorted by a column), searched and
 * filtered over a per-revision index in memory, with the number of matches and the facets the
 * filters offer. A cursor page (the id of the last tool seen) stays correct while tools are added
 * or removed; an offset page is there for clients that jump.
 */
export async function listToolPage(db: Db, catalogId: string, query: ToolPageQuery = {}): Promise<ToolPage> {
  const { index, matching, changed } = await matchingEntries(db, catalogId, query);
  const limit = Math.min(Math.max(1, Math.floor(query.limit ?? TOOL_PAGE_DEFAULT_LIMIT)), TOOL_PAGE_MAX_LIMIT);
  const start = pageStart(matching, query);
  const page = matching.slice(start, start + limit);
  const ids = page.map((entry) => entry.id);
  const rows = ids.length ? await db.select().from(tools).where(inArray(tools.id, ids)) : [];
  const byId = new Map(rows.map((row) => [row.id, row]));
  const more = start + limit < matching.length;
  return {
    tools: ids.flatMap((id) => (byId.has(id) ? [toToolRecord(byId.get(id)!)] : [])),
    total: matching.length,
    ...(more ? { nextCursor: String(ids[ids.length - 1]) } : {}),
    facets: index.facets,
    revision: index.revision,
    ...(changed ? { sourceChanges: Object.fromEntries(page.map((entry) => [entry.name, changed.get(entry.name)!.toISOString()])) } : {}),
  };
}
