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
import type { FrontMatterValue } from "./front-matter";
import { isMissing, readFrontMatter, readSourceFile, scalarField, SourceFileError, toLoadError, type SourceLoadError } from "./source-file";

/** An agent read from a markdown file: the front matter defines it, the body is its prompt. */
export interface FileAgent extends Agent {
  prompt: string;
  file: string;
}

const AGENT_KEYS = ["name", "description", "mode", "permissions", "baseTools"] as const;

/**
 * Parses an agent file. The name defaults to the file name; the mode defaults to `subagent`,
 * since a folder of agent files exists to give `task` something to delegate to. Permissions
 * are a list of `pattern: action` entries or a map, in order (the last matching rule wins).
 */
export function parseAgentFile(text: string, file: string): Omit<FileAgent, "file"> {
  const { fields, body } = readFrontMatter(text, file, AGENT_KEYS);
  const fileName = basename(file, extname(file));
  const name = scalarField(fields, "name", file) ?? fileName;
  if (!AGENT_NAME_PATTERN.test(name)) {
    throw new SourceFileError(
      file,
      `The agent name "${name}" must start with a lowercase letter or digit and contain only lowercase letters, digits, '_' and '-' (at most 64).`,
      fields.get("name")?.line,
    );
  }
  const description = scalarField(fields, "description", file);
  if (!description) {
    throw new SourceFileError(file, 'The front matter has no "description": it tells the delegating agent when to use this one.', fields.get("description")?.line);
  }
  const mode = scalarField(fields, "mode", file) ?? "subagent";
  if (!AGENT_MODES.includes(mode as AgentMode)) {
    throw new SourceFileError(file, `The mode "${mode}" is not one of ${AGENT_MODES.join(", ")}.`, fields.get("mode")?.line);
  }
  const agent: Agent = {
    name,
    mode: mode as AgentMode,
    description,
    permissions: permissionRules(fields.get("permissions"), file),
    baseTools: toolNames(fields.get("baseTools"), file),
  };
  const checked = AgentSchema.safeParse(agent);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    const field = String(issue.path[0]);
    throw new SourceFileError(file, `"${field}": ${issue.message}`, fields.get(field)?.line);
  }
  return { ...agent, prompt: body };
}

function permissionRules(value: FrontMatterValue | undefined, file: string): PermissionRule[] {
  if (value === undefined) return [];
  if (value.kind === "scalar") {
    if (value.value.trim() === "") return [];
    throw new SourceFileError(file, '"permissions" must be a list of "pattern: action" entries or a map.', value.line);
  }
  const pairs = value.kind === "map" ? value.entries : value.items;
  return pairs.map((entry) => {
    if (entry.kind !== "pair") {
      throw new SourceFileError(file, `Write each permission as "pattern: action", e.g. "bash: deny"; found "${entry.value}".`, entry.line);
    }
    const [patternError] = validatePattern(entry.key, "pattern");
    if (patternError) throw new SourceFileError(file, `Permission "${entry.key}": ${patternError.message}`, entry.line);
    if (!PERMISSION_ACTIONS.includes(entry.value as PermissionAction)) {
      throw new SourceFileError(
        file,
        `Permission "${entry.key}": the action "${entry.value}" is not one of ${PERMISSION_ACTIONS.join(", ")}.`,
        entry.line,
      );
    }
    return { pattern: entry.key, action: entry.value as PermissionAction };
  });
}

function toolNames(value: FrontMatterValue | undefined, file: string): string[] {
  if (value === undefined) return [];
  if (value.kind === "scalar" && value.value.trim() === "") return [];
  if (value.kind !== "list") throw new SourceFileError(file, '"baseTools" must be a list of tool names, e.g. [read, grep].', value.line);
  return value.items.map((item) => {
    if (item.kind !== "scalar") throw new SourceFileError(file, `"baseTools" holds tool names, not "${item.key}: ${item.value}".`, item.line);
    const [nameError] = validateToolName(item.value);
    if (nameError) throw new SourceFileError(file, `Base tool "${item.value}": ${nameError.message}`, item.line);
    return item.value;
  });
}

/** Reads every `*.md` agent file of the folder (README.md aside); a bad file is reported and the others still load. */
export async function loadAgentFiles(folder: string): Promise<{ agents: FileAgent[]; errors: SourceLoadError[] }> {
  let entries;
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
