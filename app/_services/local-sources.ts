import "server-only";
import type { Db } from "@/db/client";
import { listCatalogs } from "@/db/queries/catalogs";
import { sourceRefsOf, syncSourceTools } from "@/db/queries/source-tools";
import { requireInstanceAdmin, SYNC_ACTOR, type Principal } from "@/lib/auth/policy";
import { loadAgentFiles, type FileAgent } from "@/lib/sources/agents";
import { sourceFolders } from "@/lib/sources/folders";
import { loadPlugins, type LoadedPlugin } from "@/lib/sources/plugins";
import { loadSkills, skillToolDraft, type LoadedSkill } from "@/lib/sources/skills";
import type { SourceLoadError } from "@/lib/sources/source-file";
import { localSourcesVersion } from "@/lib/sources/version";

const SKILLS_REF = "skills";

/** What the local folders held at the last load, with every file that failed and why. */
export interface LocalSources {
  folders: { plugins: string; skills: string; agents: string };
  plugins: LoadedPlugin[];
  skills: LoadedSkill[];
  agents: FileAgent[];
  errors: { plugins: SourceLoadError[]; skills: SourceLoadError[]; agents: SourceLoadError[] };
  /** A digest of what was loaded (lib/sources/version.ts): equal files give equal versions on every instance. */
  version: string;
  loadedAt: string;
}

/** The last load of the folders, process-wide (Next may load this module more than once). */
const shared = globalThis as unknown as { toolshedLocalSources?: { local?: LocalSources } };
shared.toolshedLocalSources ??= {};
const state = shared.toolshedLocalSources;

/**
 * For an instance admin: reads the deployment's plugin, skill and agent folders again (plugins are
 * code that runs in this process) and updates every catalog's tools from them, whichever team owns it.
 */
export async function reloadLocalSourcesEverywhere(db: Db, principal: Principal): Promise<LocalSources> {
  requireInstanceAdmin(principal, "reload the plugin, skill and agent folders (it loads their code and updates every team's catalogs)");
  const local = await reloadLocalSources();
  for (const { id } of await listCatalogs(db)) await syncLocalSources(db, id);
  return local;
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
    version: localSourcesVersion(folders, { plugins: plugins.plugins, skills: skills.skills, agents: agents.agents }),
    loadedAt: new Date().toISOString(),
  };
  return state.local;
}

export async function localSources(): Promise<LocalSources> {
  return state.local ?? reloadLocalSources();
}

/** Puts the loaded plugins' and skills' tools into one catalog, in one revision; those no longer loaded stop being registered. */
export async function syncLocalSources(db: Db, catalogId: string): Promise<void> {
  const local = await localSources();
  const pluginFiles = new Set(local.plugins.map((plugin) => plugin.file));
  const storedPluginFiles = await sourceRefsOf(db, catalogId, "plugin");
  await syncSourceTools(
    db,
    catalogId,
    [
      ...local.plugins.map((plugin) => ({
        source: "plugin" as const,
        sourceRef: plugin.file,
        drafts: plugin.tools.map(({ name, summary, description, inputSchema, tags }) => ({ name, summary, description, inputSchema, tags })),
      })),
      ...storedPluginFiles.flatMap((ref) => (pluginFiles.has(ref) ? [] : [{ source: "plugin" as const, sourceRef: ref, drafts: [] }])),
      { source: "skill", sourceRef: SKILLS_REF, drafts: local.skills.map((skill) => ({ ...skillToolDraft(skill), tags: ["skill"] })) },
    ],
    SYNC_ACTOR,
  );
}
