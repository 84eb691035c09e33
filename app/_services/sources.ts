import type { Db } from "@/db/client";
import { getDb } from "@/db/client";
import { loadCatalogState } from "@/db/queries/catalog-state";
import { listCatalogs } from "@/db/queries/catalogs";
import { allMcpServerNames, getMcpServerConfig, recordMcpHealth, scrubMcpServerText } from "@/db/queries/mcp-servers";
import { sourceRefsOf, syncSourceTools, unregisterSourceTools, type SourceSyncResult } from "@/db/queries/source-tools";
import type { CatalogState } from "@/lib/pipeline/tool-list";
import { loadAgentFiles, type FileAgent } from "@/lib/sources/agents";
import { sourceFolders } from "@/lib/sources/folders";
import { McpConnections, McpSourceError, type McpServerConfig, type McpToolResult } from "@/lib/sources/mcp";
import { loadPlugins, pluginDefinitionHooks, type LoadedPlugin } from "@/lib/sources/plugins";
import { loadSkills, skillToolDraft, type LoadedSkill } from "@/lib/sources/skills";
import type { SourceLoadError } from "@/lib/sources/source-file";

const SYSTEM_ACTOR = "sync";
const SKILLS_REF = "skills";

/** What the local folders held at the last load, with every file that failed and why. */
export interface LocalSources {
  folders: { plugins: string; skills: string; agents: string };
  plugins: LoadedPlugin[];
  skills: LoadedSkill[];
  agents: FileAgent[];
  errors: { plugins: SourceLoadError[]; skills: SourceLoadError[]; agents: SourceLoadError[] };
  loadedAt: string;
}

interface SourcesState {
  pool?: McpConnections;
  local?: LocalSources;
  timer?: NodeJS.Timeout;
}

const shared = globalThis as unknown as { toolshedSources?: SourcesState };
const state = (shared.toolshedSources ??= {});

const keyOf = (catalogId: string, server: string) => `${catalogId}/${server}`;

/** The process-wide MCP connections; a server that dies takes its tools out of "registered" at once. */
function pool(): McpConnections {
  state.pool ??= new McpConnections((key, reason) => {
    const [catalogId, server] = key.split("/");
    markServerDown(getDb(), catalogId, server, reason);
  });
  return state.pool;
}

/** Unregisters the server's tools and records why, scrubbed of its secrets: the reason lands in audit entries and lastError. */
function markServerDown(db: Db, catalogId: string, server: string, reason: string): void {
  try {
    const scrubbed = scrubMcpServerText(db, catalogId, server, reason);
    unregisterSourceTools(db, catalogId, "mcp", server, SYSTEM_ACTOR, scrubbed);
    recordMcpHealth(db, catalogId, server, { status: "error", lastError: scrubbed });
  } catch (error) {
    // The catalog or server may have been deleted meanwhile: nothing left to mark.
    console.warn(`Could not mark MCP server ${catalogId}/${server} down:`, error);
  }
}

/** Connects if needed, lists the server's tools into the registry and records its health. */
export async function syncMcpServer(db: Db, catalogId: string, name: string): Promise<SourceSyncResult & { error?: string }> {
  const config = getMcpServerConfig(db, catalogId, name);
  try {
    const listing = await pool().list(keyOf(catalogId, name), config);
    const result = syncSourceTools(
      db,
      catalogId,
      "mcp",
      name,
      listing.tools.map((tool) => ({ name: tool.name, summary: tool.summary, description: tool.description, inputSchema: tool.inputSchema, tags: tool.tags, meta: { mcpName: tool.mcpName } })),
      SYSTEM_ACTOR,
    );
    const problems = [...listing.problems.map((problem) => `${problem.mcpName}: ${problem.message}`), ...result.conflicts.map((conflict) => conflict.message)];
    recordMcpHealth(db, catalogId, name, {
      status: "connected",
      lastError: problems.length ? `Connected; ${problems.length} tool(s) left out: ${problems.join(" ")}` : null,
      serverInfo: listing.serverInfo ?? null,
      toolCount: listing.tools.length,
    });
    return result;
  } catch (error) {
    const message = scrubMcpServerText(db, catalogId, name, error instanceof Error ? error.message : String(error));
    markServerDown(db, catalogId, name, message);
    return { added: [], updated: [], unregistered: [], conflicts: [], error: message };
  }
}

export async function disconnectMcpServer(catalogId: string, name: string): Promise<void> {
  await pool().disconnect(keyOf(catalogId, name));
}

/** Calls a live MCP tool for the playground, on the server's connection. */
export async function callMcpServerTool(db: Db, catalogId: string, server: string, mcpName: string, args: Record<string, unknown>): Promise<McpToolResult> {
  const config: McpServerConfig = getMcpServerConfig(db, catalogId, server);
  try {
    return await pool().call(keyOf(catalogId, server), config, mcpName, args);
  } catch (error) {
    if (error instanceof McpSourceError) markServerDown(db, catalogId, server, error.message);
    throw error;
  }
}

/** Reads the plugin, skill and agent folders again, keeping what failed to load and why. */
export async function reloadLocalSources(env: Record<string, string | undefined> = process.env): Promise<LocalSources> {
  const folders = sourceFolders(env);
  const [plugins, skills, agents] = await Promise.all([loadPlugins(folders.plugins), loadSkills(folders.skills), loadAgentFiles(folders.agents)]);
  state.local = {
    folders,
    plugins: plugins.plugins,
    skills: skills.skills,
    agents: agents.agents,
    errors: { plugins: plugins.errors, skills: skills.errors, agents: agents.errors },
    loadedAt: new Date().toISOString(),
  };
  return state.local;
}

export async function localSources(): Promise<LocalSources> {
  return state.local ?? reloadLocalSources();
}

/** Puts the loaded plugins' and skills' tools into one catalog; those no longer loaded stop being registered. */
export async function syncLocalSources(db: Db, catalogId: string): Promise<void> {
  const local = await localSources();
  const pluginFiles = new Set(local.plugins.map((plugin) => plugin.file));
  for (const plugin of local.plugins) {
    syncSourceTools(db, catalogId, "plugin", plugin.file, plugin.tools.map(({ name, summary, description, inputSchema, tags }) => ({ name, summary, description, inputSchema, tags })), SYSTEM_ACTOR);
  }
  for (const ref of sourceRefsOf(db, catalogId, "plugin")) if (!pluginFiles.has(ref)) syncSourceTools(db, catalogId, "plugin", ref, [], SYSTEM_ACTOR);
  syncSourceTools(db, catalogId, "skill", SKILLS_REF, local.skills.map((skill) => ({ ...skillToolDraft(skill), tags: ["skill"] })), SYSTEM_ACTOR);
}

/**
 * The catalog as the pipeline reads it: the stored catalog, plus the agents read from files (an
 * agent defined in the browser wins over a file agent of the same name) and the plugins' hooks.
 */
export async function catalogState(db: Db, catalogId: string): Promise<CatalogState & { revision: number }> {
  const stored = loadCatalogState(db, catalogId);
  const local = await localSources();
  const named = new Set(stored.agents.map((agent) => agent.name));
  return {
    ...stored,
    agents: [...stored.agents, ...local.agents.filter((agent) => !named.has(agent.name)).map(({ prompt: _prompt, file: _file, ...agent }) => agent)],
    definitionHooks: pluginDefinitionHooks(local.plugins),
  };
}

/** At start-up and then periodically: local sources into every catalog, and every MCP server synced. */
export async function syncAllSources(db: Db): Promise<void> {
  await reloadLocalSources();
  for (const catalog of listCatalogs(db)) await syncLocalSources(db, catalog.id);
  for (const { catalogId, name } of allMcpServerNames(db)) await syncMcpServer(db, catalogId, name);
}

export function startPeriodicSync(db: Db, intervalMs: number): void {
  if (state.timer || intervalMs <= 0) return;
  state.timer = setInterval(() => {
    for (const { catalogId, name } of allMcpServerNames(db)) void syncMcpServer(db, catalogId, name);
  }, intervalMs);
  state.timer.unref();
}
