import "server-only";
import { isDeepStrictEqual } from "node:util";
import type { Db } from "@/db/client";
import { catalogVersion, type LoadedCatalogState, loadCatalogState } from "@/db/queries/catalog-state";
import type { ToolRecord } from "@/db/queries/tools";
import { freezeCatalogState, type CatalogState } from "@/lib/pipeline/tool-list";
import { pluginDefinitionHooks } from "@/lib/sources/plugins";
import { Lru } from "@/lib/tools/lru";
import { type LocalSources, localSources } from "./local-sources";
import { unreachableServersOf } from "./sources";

// The catalog states last read, per database and catalog. A state is reused while the catalog's
// version (one indexed row read per request, see catalogVersion) and the local sources' version
// (a digest of the files loaded) are those it was built from: every write to a catalog bumps its
// version, and equal files give equal versions on every instance. States are frozen
// (freezeCatalogState) so the tool lists, views and indexes computed from one are reused with it,
// and die with it when it is replaced or evicted.
export const CATALOG_STATES_CACHED = 8;
/** About 2–3 kB a tool with its derived lists: a few hundred MB at most. */
const CATALOG_STATE_TOOLS_CACHED = 150_000;

/** A catalog as this instance answers with it: its revision, and the version of the local sources merged in. */
export type AnsweredCatalogState = CatalogState & { revision: number; sourcesVersion: string };

interface CachedCatalogState {
  version: string;
  sourcesVersion: string;
  /** As read from the database: the next read catches up from it (loadCatalogState). */
  stored: LoadedCatalogState;
  state: AnsweredCatalogState;
  /** `state` with the tools of the servers this instance cannot reach left out, for the set of servers named in `unreachable`. */
  overlay?: { unreachable: string; state: AnsweredCatalogState };
}

const stateCaches = new WeakMap<Db, Lru<string, CachedCatalogState>>();

function stateCacheOf(db: Db): Lru<string, CachedCatalogState> {
  let cache = stateCaches.get(db);
  if (cache === undefined) {
    cache = new Lru({ maxEntries: CATALOG_STATES_CACHED, maxWeight: CATALOG_STATE_TOOLS_CACHED, weigh: (entry) => entry.state.tools.length + 1 });
    stateCaches.set(db, cache);
  }
  return cache;
}

/** For tests: the number of catalog states cached for this database. */
export function cachedCatalogStates(db: Db): number {
  return stateCaches.get(db)?.size ?? 0;
}

/**
 * The catalog as the pipeline reads it: the stored catalog, plus the agents read from files (an
 * agent defined in the browser wins over a file agent of the same name) and the plugins' hooks,
 * with the tools of the MCP servers this instance cannot reach left out as unavailable. Frozen and
 * shared between requests until the catalog, the local sources or those servers change.
 */
export async function catalogState(db: Db, catalogId: string): Promise<AnsweredCatalogState> {
  const local = await localSources();
  const version = await catalogVersion(db, catalogId);
  const cache = stateCacheOf(db);
  let cached = cache.get(catalogId);
  if (cached === undefined || cached.version !== version || cached.sourcesVersion !== local.version)
    cached = await readOnce(db, catalogId, local, version, cached);
  return withUnreachableLeftOut(cached, catalogId);
}

/** Reads of a catalog's state under way, per database, catalog and versions. */
const reads = new WeakMap<Db, Map<string, Promise<CachedCatalogState>>>();

/**
 * The catalog's state read once, however many ask at the same time: a request that comes while
 * the state is being read (by another request, or while this instance catches up on another's
 * write) waits for that read instead of reading the same changes again.
 */
function readOnce(db: Db, catalogId: string, local: LocalSources, version: string, earlier?: CachedCatalogState): Promise<CachedCatalogState> {
  const underWay = reads.get(db) ?? new Map<string, Promise<CachedCatalogState>>();
  reads.set(db, underWay);
  const key = JSON.stringify([catalogId, version, local.version]);
  let read = underWay.get(key);
  if (read === undefined) {
    read = readCatalogState(db, catalogId, local, earlier)
      .then((state) => {
        stateCacheOf(db).set(catalogId, state);
        return state;
      })
      .finally(() => underWay.delete(key));
    underWay.set(key, read);
  }
  return read;
}

async function readCatalogState(db: Db, catalogId: string, local: LocalSources, earlier?: CachedCatalogState): Promise<CachedCatalogState> {
  const stored = await loadCatalogState(db, catalogId, earlier?.stored);
  const named = new Set(stored.agents.map((agent) => agent.name));
  const agents = [...stored.agents, ...local.agents.filter((agent) => !named.has(agent.name)).map(({ prompt: _prompt, file: _file, ...agent }) => agent)];
  // Rules and agents as the replaced state has them when they are equal: its lists are then made
  // again only for the tools that changed (computeToolList), not from every tool.
  const before = earlier?.state;
  const state = freezeCatalogState(
    {
      catalogId: stored.catalogId,
      revision: stored.revision,
      sourcesVersion: local.version,
      tools: stored.tools,
      rules: before && isDeepStrictEqual(before.rules, stored.rules) ? before.rules : stored.rules,
      agents: before && isDeepStrictEqual(before.agents, agents) ? before.agents : agents,
      definitionHooks: pluginDefinitionHooks(local.plugins),
    },
    before,
  );
  return { version: stored.version, sourcesVersion: local.version, stored, state };
}

/**
 * The cached state as this instance answers with it: the shared state while it reaches every
 * server of the catalog; else a copy whose tools of the servers it cannot reach are not
 * registered here (Tool.unavailableHere), made again only when that set of servers changes.
 */
function withUnreachableLeftOut(cached: CachedCatalogState, catalogId: string): AnsweredCatalogState {
  const servers = unreachableServersOf(catalogId);
  if (servers.length === 0) return cached.state;
  const names = JSON.stringify(servers.sort());
  if (cached.overlay?.unreachable !== names) {
    const down = new Set(servers);
    const leftOut = (tool: ToolRecord) => tool.source === "mcp" && tool.sourceRef !== null && down.has(tool.sourceRef);
    const tools = cached.state.tools as ToolRecord[];
    const state = tools.some(leftOut)
      ? freezeCatalogState({
          ...cached.state,
          tools: tools.map((tool) => (leftOut(tool) ? { ...tool, registered: false, unavailableHere: true as const } : tool)),
        })
      : cached.state;
    cached.overlay = { unreachable: names, state };
  }
  return cached.overlay.state;
}
