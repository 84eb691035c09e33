import "server-only";
export { loadAgentFiles, parseAgentFile, type FileAgent } from "./agents";
export { sourceFolders, type SourceFolders } from "./folders";
export * from "./mcp";
export * from "./plugins";
export {
  loadSkills,
  parseSkillFile,
  SKILL_DESCRIPTION_MAX,
  SKILL_FILE,
  SKILL_NAME_MAX,
  SKILL_NAME_PATTERN,
  skillToolDraft,
  type LoadedSkill,
  type Skill,
  type SkillToolDraft,
} from "./skills";
export { readFrontMatter, SourceFileError, type FrontMatter, type SourceLoadError } from "./source-file";
export { localSourcesVersion } from "./version";
