import "server-only";
import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import { basename, extname, join } from "node:path";
import {
  AGENT_MODES,
  AGENT_NAME_PATTERN,
  AgentSchema,
  PERMISSION_ACTIONS,
  type Agent,
  type AgentMode,
  type PermissionAction,
  type PermissionRule,
} from "../rules/agents";
import { validatePattern } from "../rules/patterns";
import { validateToolName } from "../tools/validate";
import { z } from "zod";
import {
  isMissing,
  kindOf,
  readFrontMatter,
  readSourceFile,
  SourceFileError,
  textField,
  toLoadError,
  type FrontMatter,
  type SourceLoadError,
} from "./source-file";

/** An agent read from a markdown file: the front matter defines it, the body is its prompt. */
export interface FileAgent extends Agent {
  prompt: string;
  file: string;
}

/** An empty value ("permissions:" with nothing after it) means none. */
const empty = z.literal("");

const AgentFrontMatterSchema = z.strictObject({
  name: textField("name").optional(),
  description: textField("description").optional(),
  mode: textField("mode").optional(),
  permissions: z
    .union([empty, z.array(z.unknown()), z.map(z.unknown(), z.unknown())], { error: '"permissions" must be a list of "pattern: action" entries or a map.' })
    .optional(),
  baseTools: z.union([empty, z.array(z.unknown())], { error: '"baseTools" must be a list of tool names, e.g. [read, grep].' }).optional(),
});

type AgentFrontMatter = FrontMatter<z.output<typeof AgentFrontMatterSchema>>;

/**
 * Parses an agent file. The name defaults to the file name; the mode defaults to `subagent`,
 * since a folder of agent files exists to give `task` something to delegate to. Permissions
 * are a list of `pattern: action` entries or a map, in order (the last matching rule wins).
 */
export function parseAgentFile(text: string, file: string): Omit<FileAgent, "file"> {
  const frontMatter = readFrontMatter(text, file, AgentFrontMatterSchema);
  const { data, lineOf } = frontMatter;
  const fileName = basename(file, extname(file));
  const name = data.name ?? fileName;
  if (!AGENT_NAME_PATTERN.test(name)) {
    throw new SourceFileError(
      file,
      `The agent name "${name}" must start with a lowercase letter or digit and contain only lowercase letters, digits, '_' and '-' (at most 64).`,
      lineOf(["name"]),
    );
  }
  const description = data.description;
  if (!description) {
    throw new SourceFileError(file, 'The front matter has no "description": it tells the delegating agent when to use this one.', lineOf(["description"]));
  }
  const mode = data.mode ?? "subagent";
  if (!AGENT_MODES.includes(mode as AgentMode)) {
    throw new SourceFileError(file, `The mode "${mode}" is not one of ${AGENT_MODES.join(", ")}.`, lineOf(["mode"]));
  }
  const agent: Agent = {
    name,
    mode: mode as AgentMode,
    description,
    permissions: permissionRules(frontMatter, file),
    baseTools: toolNames(frontMatter, file),
  };
  const checked = AgentSchema.safeParse(agent);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    const field = String(issue.path[0]);
    throw new SourceFileError(file, `"${field}": ${issue.message}`, lineOf([field]));
  }
  return { ...agent, prompt: frontMatter.body };
}

/** The rules in file order: a map's entries, or a list's items, each a `pattern: action` pair. */
function permissionRules({ data, lineOf }: AgentFrontMatter, file: string): PermissionRule[] {
  const value = data.permissions;
  if (value === undefined || value === "") return [];
  const entries: { pattern: unknown; action: unknown; path: PropertyKey[] }[] = [];
  if (value instanceof Map) {
    for (const [pattern, action] of value) entries.push({ pattern, action, path: ["permissions", String(pattern)] });
  } else {
    value.forEach((item, index) => {
      if (!(item instanceof Map)) {
        throw new SourceFileError(
          file,
          `Write each permission as "pattern: action", e.g. "bash: deny"; found ${kindOf(item)}.`,
          lineOf(["permissions", index]),
        );
      }
      for (const [pattern, action] of item) entries.push({ pattern, action, path: ["permissions", index, String(pattern)] });
    });
  }
  return entries.map(({ pattern, action, path }) => {
    const line = lineOf(path);
    if (typeof pattern !== "string") throw new SourceFileError(file, `A permission's pattern must be text, not ${kindOf(pattern)}.`, line);
    const [patternError] = validatePattern(pattern, "pattern");
    if (patternError) throw new SourceFileError(file, `Permission "${pattern}": ${patternError.message}`, line);
    if (typeof action !== "string") {
      throw new SourceFileError(file, `Permission "${pattern}": the action must be one of ${PERMISSION_ACTIONS.join(", ")}, not ${kindOf(action)}.`, line);
    }
    if (!PERMISSION_ACTIONS.includes(action as PermissionAction)) {
      throw new SourceFileError(file, `Permission "${pattern}": the action "${action}" is not one of ${PERMISSION_ACTIONS.join(", ")}.`, line);
    }
    return { pattern, action: action as PermissionAction };
  });
}

function toolNames({ data, lineOf }: AgentFrontMatter, file: string): string[] {
  const value = data.baseTools;
  if (value === undefined || value === "") return [];
  return value.map((item, index) => {
    const line = lineOf(["baseTools", index]);
    if (typeof item !== "string") throw new SourceFileError(file, `"baseTools" holds tool names, not ${kindOf(item)}.`, line);
    const [nameError] = validateToolName(item);
    if (nameError) throw new SourceFileError(file, `Base tool "${item}": ${nameError.message}`, line);
    return item;
  });
}

/** Reads every `*.md` agent file of the folder (README.md aside); a bad file is reported and the others still load. */
export async function loadAgentFiles(folder: string): Promise<{ agents: FileAgent[]; errors: SourceLoadError[] }> {
  let entries: Dirent[];
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch (error) {
    if (isMissing(error)) return { agents: [], errors: [] };
    return { agents: [], errors: [toLoadError(error, folder)] };
  }
  const files = entries
    .filter((entry) => entry.isFile() && entry.name.endsWith(".md") && entry.name.toLowerCase() !== "readme.md")
    .map((entry) => entry.name)
    .sort();
  const agents: FileAgent[] = [];
  const errors: SourceLoadError[] = [];
  for (const name of files) {
    const file = join(folder, name);
    try {
      const agent = parseAgentFile(await readSourceFile(file), file);
      const earlier = agents.find((other) => other.name === agent.name);
      if (earlier) throw new SourceFileError(file, `Another agent file (${earlier.file}) already defines "${agent.name}".`);
      agents.push({ ...agent, file });
    } catch (error) {
      errors.push(toLoadError(error, file));
    }
  }
  return { agents, errors };
}
