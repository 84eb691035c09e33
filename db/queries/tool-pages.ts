import { asc, eq, inArray } from "drizzle-orm";
import { notFound } from "@/lib/errors";
import type { ToolSource } from "@/lib/tools/types";
import type { Db } from "../client";
import { catalogs, tools } from "../schema";
import type { Tx } from "./audit";
import { toToolRecord, type ToolRecord } from "./tools";

export const TOOL_PAGE_DEFAULT_LIMIT = 100;
export const TOOL_PAGE_MAX_LIMIT = 500;
/** How many tags the facet lists, most used first. */
export const TAG_FACET_LIMIT = 200;
/** How many catalogs keep a search index in memory (per database), the least recently used going first. */
const CACHED_CATALOGS = 16;

export type ToolStateFilter = "all" | "enabled" | "disabled";

export interface ToolPageQuery {
  /** Words that must all occur (case-insensitive, as substrings) in the name, summary or tags. */
  q?: string;
  source?: ToolSource;
  state?: ToolStateFilter;
  /** Only tools carrying exactly this tag. */
  tag?: string;
  /** Where to start: a row offset, or the `nextCursor` of the previous page (the cursor wins). */
  offset?: number;
  cursor?: string;
  limit?: number;
}

export interface ToolFacets {
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
}

/** What filtering needs of one tool, kept in memory per catalog revision. */
interface IndexEntry {
  id: number;
  /** Name, summary and tags, ASCII lower-cased, one per line. */
  haystack: string;
  source: ToolSource;
  enabled: boolean;
  tags: string[];
}

interface CatalogIndex {
  revision: number;
  createdAt: number;
  /** In registration (id) order. */
  entries: IndexEntry[];
  facets: ToolFacets;
}

const indexes = new WeakMap<Db, Map<string, CatalogIndex>>();

/** Lower-cases ASCII only, so that "É" and "é" stay what they are on both sides. */
function foldAscii(text: string): string {
  return text.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
}

export function searchWords(q: string | undefined): string[] {
  return [...new Set(foldAscii(q ?? "").split(/\s+/).filter(Boolean))];
}

function buildIndex(db: Tx, catalogId: string, revision: number, createdAt: number): CatalogIndex {
  const rows = db
    .select({ id: tools.id, name: tools.name, summary: tools.summary, source: tools.source, enabled: tools.enabled, tags: tools.tags })
    .from(tools)
    .where(eq(tools.catalogId, catalogId))
    .orderBy(asc(tools.id))
    .all();
  const bySource = new Map<ToolSource, number>();
  const byTag = new Map<string, number>();
  const entries = rows.map((row): IndexEntry => {
    bySource.set(row.source, (bySource.get(row.source) ?? 0) + 1);
    for (const tag of row.tags) byTag.set(tag, (byTag.get(tag) ?? 0) + 1);
    return { id: row.id, haystack: foldAscii(`${row.name}\n${row.summary}\n${row.tags.join("\n")}`), source: row.source, enabled: row.enabled, tags: row.tags };
  });
  const tags = [...byTag]
    .sort(([a, countA], [b, countB]) => countB - countA || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, TAG_FACET_LIMIT)
    .map(([tag, count]) => ({ tag, count }));
  const sources = [...bySource].map(([source, count]) => ({ source, count }));
  return { revision, createdAt, entries, facets: { sources, tags, catalogTotal: entries.length } };
}

/**
 * The catalog's search index at its current revision: every change to a tool bumps the revision
 * (db/queries/audit), so an index is rebuilt only after a change, and a catalog deleted and made
 * again under the same id is told apart by its creation time.
 */
function catalogIndex(db: Db, catalogId: string): CatalogIndex {
  return db.transaction((tx) => {
    const catalog = tx.select({ revision: catalogs.revision, createdAt: catalogs.createdAt }).from(catalogs).where(eq(catalogs.id, catalogId)).get();
    if (!catalog) throw notFound(`Catalog "${catalogId}"`, "catalog");
    let cache = indexes.get(db);
    if (!cache) indexes.set(db, (cache = new Map()));
    const createdAt = catalog.createdAt.getTime();
    let index = cache.get(catalogId);
    cache.delete(catalogId);
    if (!index || index.revision !== catalog.revision || index.createdAt !== createdAt) {
      index = buildIndex(tx, catalogId, catalog.revision, createdAt);
    }
    cache.set(catalogId, index);
    while (cache.size > CACHED_CATALOGS) cache.delete(cache.keys().next().value!);
    return index;
  });
}

function matcher(query: ToolPageQuery): (entry: IndexEntry) => boolean {
  const words = searchWords(query.q);
  const { source, tag } = query;
  const enabled = query.state === "enabled" ? true : query.state === "disabled" ? false : undefined;
  return (entry) =>
    (source === undefined || entry.source === source) &&
    (enabled === undefined || entry.enabled === enabled) &&
    (tag === undefined || entry.tags.includes(tag)) &&
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

/**
 * One page of a catalog's tools in registration order, searched and filtered over a per-revision
 * index in memory, with the number of matches and the facets the filters offer. A cursor page
 * (the id of the last tool seen) stays correct while tools are added or removed; an offset page is
 * there for clients that jump.
 */
export function listToolPage(db: Db, catalogId: string, query: ToolPageQuery = {}): ToolPage {
  const index = catalogIndex(db, catalogId);
  const limit = Math.min(Math.max(1, Math.floor(query.limit ?? TOOL_PAGE_DEFAULT_LIMIT)), TOOL_PAGE_MAX_LIMIT);
  const matching = index.entries.filter(matcher(query));
  const cursor = query.cursor === undefined ? undefined : Number(query.cursor);
  const start = cursor !== undefined && Number.isSafeInteger(cursor) ? firstAfter(matching, cursor) : Math.max(0, Math.floor(query.offset ?? 0));
  const page = matching.slice(start, start + limit);
  const ids = page.map((entry) => entry.id);
  const rows = ids.length ? db.select().from(tools).where(inArray(tools.id, ids)).orderBy(asc(tools.id)).all() : [];
  const more = start + limit < matching.length;
  return {
    tools: rows.map(toToolRecord),
    total: matching.length,
    ...(more ? { nextCursor: String(ids[ids.length - 1]) } : {}),
    facets: index.facets,
    revision: index.revision,
  };
}

/** The facets alone (sources and tags with their counts), from the same index. */
export function toolFacets(db: Db, catalogId: string): ToolFacets {
  return catalogIndex(db, catalogId).facets;
}
