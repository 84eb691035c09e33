import "server-only";
import { createHash } from "node:crypto";
import { relative } from "node:path";
import type { FileAgent } from "./agents";
import type { SourceFolders } from "./folders";
import type { LoadedPlugin } from "./plugins";
import type { LoadedSkill } from "./skills";

/**
 * The version of the local sources as loaded: a digest of each plugin module's file, each skill
 * and each agent file as read, by its path within its folder. Instances whose folders hold the
 * same files agree on it wherever the folders are, so what is cached by it (with the catalog's
 * version) is the same on every instance. A plugin counts by its own file: what that imports
 * from elsewhere is not in it.
 */
export function localSourcesVersion(
  folders: SourceFolders,
  loaded: { plugins: readonly LoadedPlugin[]; skills: readonly LoadedSkill[]; agents: readonly FileAgent[] },
): string {
  const content = {
    plugins: loaded.plugins.map((plugin) => [relative(folders.plugins, plugin.file), plugin.digest]),
    skills: loaded.skills.map((skill) => ({ ...skill, file: relative(folders.skills, skill.file) })),
    agents: loaded.agents.map((agent) => ({ ...agent, file: relative(folders.agents, agent.file) })),
  };
  return createHash("sha256").update(JSON.stringify(content)).digest("base64url");
}
