import { parse as parseYaml, stringify as stringifyYaml, YAMLParseError } from "yaml";
import { z } from "zod";
import { ToolshedError } from "../errors";
import { type Agent, AgentSchema } from "../rules/agents";
import type { CatalogRules } from "../rules/catalog-rules";
import { ModelRuleSchema } from "../rules/model-rules";
import { DefinitionOverrideSchema } from "../rules/overrides";
import { ProviderProfileSchema } from "../rules/providers";
import { type McpServerConfig, McpServerConfigSchema } from "../sources/mcp/config";
import { TOOL_SOURCES, type Tool } from "../tools/types";
import { type FieldError, validateTags, validateToolDraft, validateToolName } from "../tools/validate";
import type { CatalogCodeFormat } from "./code-format";
import { EXPORT_FORMAT } from "./exchange";
import { secretReferenceProblems, withSecretReferences } from "./secret-references";

/**
 * A whole catalog as one document to keep in a repository, review and apply (`toolshed export`,
 * `toolshed apply`, GET …/export?format=, POST …/apply): its tools, agents, rules and MCP servers,
 * without anything that changes by itself (revision, timestamps, ids), so that exporting a catalog
 * an apply made gives the file back byte for byte. Version 1 of the format is the tools-only export
 * the import reads (exchange.ts).
 */
const CATALOG_CODE_VERSION = 2;

/** A custom tool is written whole; a source's tool only with what a person sets on it (its source defines the rest). */
export type CodeTool =
  | { name: string; source: "custom"; summary: string; description: string; inputSchema: Tool["inputSchema"]; enabled: boolean; tags: string[] }
  | { name: string; source: Exclude<Tool["source"], "custom">; enabled: boolean; tags: string[] };

export interface CatalogCode {
  format: typeof EXPORT_FORMAT;
  version: typeof CATALOG_CODE_VERSION;
  tools?: CodeTool[];
  agents?: Agent[];
  rules?: Partial<CatalogRules>;
  /** Each secret a `${env:NAME}` reference (secret-references.ts). */
  mcpServers?: McpServerConfig[];
}

/** What an export is made of: the catalog as stored, MCP configurations with their secrets masked. */
export interface CatalogContents {
  tools: Pick<Tool, "name" | "source" | "summary" | "description" | "inputSchema" | "enabled" | "tags">[];
  agents: Agent[];
  rules: CatalogRules;
  mcpServers: McpServerConfig[];
}

const byName = <T extends { name: string }>(a: T, b: T) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** The document of a catalog: tools, agents and servers by name (their ids are not the file's business), rule lists in their order. */
export function buildCatalogCode(contents: CatalogContents): CatalogCode {
  return {
    format: EXPORT_FORMAT,
    version: CATALOG_CODE_VERSION,
    tools: [...contents.tools].sort(byName).map((tool) =>
      tool.source === "custom"
        ? {
            name: tool.name,
            source: "custom",
            summary: tool.summary,
            description: tool.description,
            inputSchema: tool.inputSchema,
            enabled: tool.enabled,
            tags: tool.tags,
          }
        : { name: tool.name, source: tool.source, enabled: tool.enabled, tags: tool.tags },
    ),
    agents: [...contents.agents]
      .sort(byName)
      .map(({ name, mode, description, permissions, baseTools }) => ({ name, mode, description, permissions, baseTools })),
    rules: {
      modelRules: contents.rules.modelRules,
      providers: contents.rules.providers,
      overrides: contents.rules.overrides,
      searchServiceConfigured: contents.rules.searchServiceConfigured,
    },
    mcpServers: [...contents.mcpServers].sort(byName).map(withSecretReferences),
  };
}

export function formatCatalogCode(document: CatalogCode, format: CatalogCodeFormat): string {
  if (format === "json") return `${JSON.stringify(document, null, 2)}\n`;
  // No anchors: a reviewer reads every value where it applies.
  return stringifyYaml(document, { aliasDuplicateObjects: false, lineWidth: 0 });
}

/** The text of a catalog file (YAML, of which JSON is a part) as a value; a syntax error names its line. */
export function readCatalogCodeText(text: string): unknown {
  try {
    return parseYaml(text, { maxAliasCount: 100 });
  } catch (error) {
    if (error instanceof YAMLParseError) {
      const at = error.linePos?.[0];
      throw new ToolshedError(
        "bad_request",
        `The file is not valid YAML or JSON${at ? ` (line ${at.line}, column ${at.col})` : ""}: ${error.message.split("\n")[0]}`,
      );
    }
    // An alias that names no anchor, or more aliases than allowed (a "billion laughs" file): the file's fault too.
    if (error instanceof ReferenceError) throw new ToolshedError("bad_request", `The file is not valid YAML: ${error.message}.`);
    throw error;
  }
}

const sourceTool = z.strictObject({
  name: z.string(),
  source: z.enum(TOOL_SOURCES.filter((source) => source !== "custom") as [Exclude<Tool["source"], "custom">, ...Exclude<Tool["source"], "custom">[]]),
  enabled: z.boolean().default(true),
  tags: z.array(z.string()).default([]),
});

/** The fields of a custom tool; their values are checked by validateToolDraft, as every other way in does. */
const customTool = z.strictObject({
  name: z.unknown(),
  source: z.literal("custom").default("custom"),
  summary: z.unknown(),
  description: z.unknown(),
  inputSchema: z.unknown(),
  enabled: z.boolean().default(true),
  tags: z.unknown().default([]),
});

const documentSchema = z.strictObject({
  format: z.literal(EXPORT_FORMAT, { error: `"format" is "${EXPORT_FORMAT}".` }),
  version: z.literal(CATALOG_CODE_VERSION, { error: `"version" is ${CATALOG_CODE_VERSION} (version 1, the tools-only export, is read by the import).` }),
  tools: z.array(z.unknown()).max(50_000).optional(),
  agents: z.array(AgentSchema.strict()).max(500).optional(),
  rules: z
    .strictObject({
      modelRules: z.array(ModelRuleSchema.strict()).max(200).optional(),
      providers: z.array(ProviderProfileSchema.strict()).max(100).optional(),
      overrides: z.array(DefinitionOverrideSchema.strict()).max(1000).optional(),
      searchServiceConfigured: z.boolean().optional(),
    })
    .optional(),
  mcpServers: z.array(McpServerConfigSchema).max(200).optional(),
});

const issuesAsProblems = (issues: z.core.$ZodIssue[], prefix: string): FieldError[] =>
  issues.map((issue) => ({ field: [prefix, ...issue.path.map(String)].filter(Boolean).join(".") || "document", message: issue.message }));

function readTool(raw: unknown, field: string, problems: FieldError[]): CodeTool | undefined {
  const isCustom = raw !== null && typeof raw === "object" && ((raw as { source?: unknown }).source ?? "custom") === "custom";
  const parsed = (isCustom ? customTool : sourceTool).safeParse(raw);
  if (!parsed.success) {
    problems.push(...issuesAsProblems(parsed.error.issues, field));
    return undefined;
  }
  const draftProblems = isCustom
    ? validateToolDraft(parsed.data, field)
    : [...validateToolName(parsed.data.name, `${field}.name`), ...validateTags(parsed.data.tags, `${field}.tags`)];
  problems.push(...draftProblems);
  return draftProblems.length === 0 ? (parsed.data as CodeTool) : undefined;
}

/** Names given twice in one list: the later one is the problem, pointing at the first. */
function duplicates(items: { name: string }[] | undefined, list: string): FieldError[] {
  const seen = new Map<string, number>();
  const problems: FieldError[] = [];
  items?.forEach((item, index) => {
    const first = seen.get(item.name);
    if (first === undefined) seen.set(item.name, index);
    else problems.push({ field: `${list}.${index}.name`, message: `"${item.name}" appears twice (also at ${list}.${first}).` });
  });
  return problems;
}

/**
 * Reads a catalog file: every problem at once, each named by its path in the document
 * (`tools.3.inputSchema.type`, `mcpServers.0.env.GITHUB_TOKEN`), or the document, all valid.
 * Checks what the file alone decides; what depends on the catalog is checked by planApply.
 */
export function parseCatalogCode(value: unknown): CatalogCode {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new ToolshedError("bad_request", `A catalog file is a mapping with "format: ${EXPORT_FORMAT}" and "version: ${CATALOG_CODE_VERSION}".`, "document");
  }
  const parsed = documentSchema.safeParse(value);
  const problems: FieldError[] = parsed.success ? [] : issuesAsProblems(parsed.error.issues, "");
  const raw = value as { tools?: unknown; mcpServers?: unknown };
  const tools = Array.isArray(raw.tools) ? raw.tools.map((entry, index) => readTool(entry, `tools.${index}`, problems)) : undefined;
  if (tools?.every((tool) => tool !== undefined)) problems.push(...duplicates(tools as CodeTool[], "tools"));
  // Each server that reads as one, whatever else is wrong: secrets are the problem to name first.
  if (Array.isArray(raw.mcpServers)) {
    for (const [index, entry] of raw.mcpServers.entries()) {
      const server = McpServerConfigSchema.safeParse(entry);
      if (server.success) problems.push(...secretReferenceProblems(server.data, `mcpServers.${index}`));
    }
  }
  if (parsed.success) problems.push(...duplicates(parsed.data.agents, "agents"), ...duplicates(parsed.data.mcpServers, "mcpServers"));
  if (problems.length > 0 || !parsed.success) throw ToolshedError.fromFieldErrors(problems, "Catalog file rejected");
  return { ...parsed.data, ...(tools && { tools: tools as CodeTool[] }) } as CatalogCode;
}
