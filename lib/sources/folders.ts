import "server-only";

export interface SourceFolders {
  plugins: string;
  skills: string;
  agents: string;
}

/** Where the file-based sources live; an empty variable counts as unset, so `VAR=` restores the default. */
export function sourceFolders(env: Record<string, string | undefined>): SourceFolders {
  return {
    plugins: env.TOOLSHED_PLUGINS_DIR || "./plugins",
    skills: env.TOOLSHED_SKILLS_DIR || "./skills",
    agents: env.TOOLSHED_AGENTS_DIR || "./agents",
  };
}
