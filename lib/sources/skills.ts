import "server-only";
import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { textProblem } from "../safe-text";
import { isBuiltinToolName } from "../tools/builtin";
import type { ToolDefinition } from "../tools/types";
import { EMPTY_INPUT_SCHEMA, summarize } from "../tools/validate";
import { z } from "zod";
import { isMissing, readFrontMatter, readSourceFile, SourceFileError, textField, toLoadError, type SourceLoadError } from "./source-file";

export interface Skill {
  name: string;
  description: string;
  /** The instructions the `skill` tool returns when the skill is loaded. */
  body: string;
}

export interface LoadedSkill extends Skill {
  /** The SKILL.md file it was read from. */
  file: string;
}

/** A skill as a registry entry: listed in the `skill` tool's description, never offered on its own. */
export interface SkillToolDraft extends ToolDefinition {
  source: "skill";
  tags: string[];
}

const SKILL_FILE = "SKILL.md";
/** Lowercase words of letters and digits joined by single hyphens, as the Agent Skills format requires. */
const SKILL_NAME_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const SKILL_NAME_MAX = 64;
const SKILL_DESCRIPTION_MAX = 1_024;

/**
 * The front matter of the Agent Skills format. Toolshed uses the name and description; the other
 * keys are accepted (and checked only loosely) so that skills written for other agents load.
 */
const SkillFrontMatterSchema = z.strictObject({
  name: textField("name").optional(),
  description: textField("description").optional(),
  license: textField("license").optional(),
  compatibility: textField("compatibility").optional(),
  "allowed-tools": z.union([z.string(), z.array(z.string())], { error: '"allowed-tools" must be text or a list of tool names.' }).optional(),
  /** Anything the skill's author keeps: nested maps and lists included. */
  metadata: z.unknown().optional(),
});

/** Parses and checks one `<name>/SKILL.md`; throws a SourceFileError that says what to fix. */
export function parseSkillFile(text: string, file: string): Skill {
  const { data, body, lineOf } = readFrontMatter(text, file, SkillFrontMatterSchema);
  const name = data.name;
  const nameLine = lineOf(["name"]);
  if (!name) throw new SourceFileError(file, 'The front matter has no "name".', nameLine);
  if (name.length > SKILL_NAME_MAX) {
    throw new SourceFileError(file, `The name is ${name.length} characters long; the limit is ${SKILL_NAME_MAX}.`, nameLine);
  }
  if (!SKILL_NAME_PATTERN.test(name)) {
    throw new SourceFileError(
      file,
      `The name "${name}" must be lowercase letters and digits in words joined by single hyphens (e.g. release-notes).`,
      nameLine,
    );
  }
  const folder = basename(dirname(file));
  if (name !== folder) {
    throw new SourceFileError(file, `The name "${name}" must equal the skill's folder name "${folder}".`, nameLine);
  }
  if (isBuiltinToolName(name)) {
    throw new SourceFileError(file, `The name "${name}" is taken by a built-in tool; rename the skill and its folder.`, nameLine);
  }
  const description = data.description;
  const descriptionLine = lineOf(["description"]);
  if (!description) {
    throw new SourceFileError(file, 'The front matter has no "description": it is how an agent knows when to use the skill.', descriptionLine);
  }
  if (description.length > SKILL_DESCRIPTION_MAX) {
    throw new SourceFileError(file, `The description is ${description.length} characters long; the limit is ${SKILL_DESCRIPTION_MAX}.`, descriptionLine);
  }
  const unsafe = textProblem(description);
  if (unsafe) throw new SourceFileError(file, `The description: ${unsafe}`, descriptionLine);
  return { name, description, body };
}

/** Reads every `<folder>/<name>/SKILL.md`; a bad skill is reported and the others still load. */
export async function loadSkills(folder: string): Promise<{ skills: LoadedSkill[]; errors: SourceLoadError[] }> {
  let entries: Dirent[];
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch (error) {
    if (isMissing(error)) return { skills: [], errors: [] };
    return { skills: [], errors: [toLoadError(error, folder)] };
  }
  const skills: LoadedSkill[] = [];
  const errors: SourceLoadError[] = [];
  const directories = entries.filter((entry) => entry.isDirectory() && !entry.name.startsWith(".")).map((entry) => entry.name);
  for (const directory of directories.sort()) {
    const file = join(folder, directory, SKILL_FILE);
    try {
      skills.push({ ...parseSkillFile(await readSourceFile(file), file), file });
    } catch (error) {
      errors.push(isMissing(error) ? { file, message: `The folder "${directory}" has no ${SKILL_FILE}.` } : toLoadError(error, file));
    }
  }
  return { skills, errors };
}

export function skillToolDraft(skill: Skill): SkillToolDraft {
  return {
    name: skill.name,
    source: "skill",
    summary: summarize(skill.description),
    description: skill.description,
    inputSchema: structuredClone(EMPTY_INPUT_SCHEMA),
    tags: [],
  };
}
