import { ToolshedError } from "../errors";
import type { FieldError } from "../tools/validate";
import { checkImportSize, EXPORT_FORMAT } from "./exchange";

/** Every kind of file an import reads, detected from its shape. */
type ImportFormatId = "toolshed" | "labelled-set" | "openai-chat" | "openai-responses" | "anthropic" | "mcp-tools" | "mcp-client-config";

/** What a preview says of the file it read. */
export interface ImportFormat {
  id: ImportFormatId;
  label: string;
}

type Entry = Record<string, unknown>;

/** A tool format other than Toolshed's own: how to recognise one of its tools, and where its fields are. */
interface ToolFormat {
  label: string;
  /** The smallest file of this format, for the message that lists them. */
  example: string;
  /** Whether a list entry is a tool of this format. */
  fits: (entry: Entry) => boolean;
  /** The tool's own object: its name, description and schema are read from here. */
  body: (entry: Entry) => Entry;
  /** Where the name, description and input schema are, relative to the entry. */
  fields: { name: string; description: string; schema: string };
  /** Fields of an entry (or of its body) besides the name, description and schema that an import may leave out: each is noted. */
  dropped: string[];
}

const isObject = (value: unknown): value is Entry => value !== null && typeof value === "object" && !Array.isArray(value);

const hasName = (entry: Entry) => typeof entry.name === "string";

/** The tool formats an import reads besides Toolshed's own, in the order a file's first tool is tried against them. */
const TOOL_FORMATS: Record<Exclude<ImportFormatId, "toolshed" | "mcp-client-config">, ToolFormat> = {
  "openai-chat": {
    label: "OpenAI Chat Completions function tools",
    example: '[{"type": "function", "function": {"name": "get_weather", "description": "…", "parameters": {"type": "object"}}}]',
    fits: (entry) => entry.type === "function" && isObject(entry.function),
    body: (entry) => entry.function as Entry,
    fields: { name: "function.name", description: "function.description", schema: "function.parameters" },
    dropped: ["type", "strict"],
  },
  "openai-responses": {
    label: "OpenAI Responses function tools",
    example: '[{"type": "function", "name": "get_weather", "description": "…", "parameters": {"type": "object"}}]',
    fits: (entry) => entry.type === "function" && !("function" in entry),
    body: (entry) => entry,
    fields: { name: "name", description: "description", schema: "parameters" },
    dropped: ["type", "strict"],
  },
  anthropic: {
    label: "Anthropic tools",
    example: '[{"name": "get_weather", "description": "…", "input_schema": {"type": "object"}}]',
    fits: (entry) => "input_schema" in entry,
    body: (entry) => entry,
    fields: { name: "name", description: "description", schema: "input_schema" },
    dropped: ["type", "cache_control"],
  },
  "mcp-tools": {
    label: "MCP tools/list result (also AI SDK)",
    example: '{"tools": [{"name": "get_weather", "description": "…", "inputSchema": {"type": "object"}}]}',
    fits: (entry) => "inputSchema" in entry,
    body: (entry) => entry,
    fields: { name: "name", description: "description", schema: "inputSchema" },
    dropped: ["title", "outputSchema", "annotations", "_meta", "icons", "execution"],
  },
  "labelled-set": {
    label: "labelled set",
    example: '{"tools": [{"name": "get_weather", "description": "…", "parameters": {"type": "object"}}]}',
    fits: (entry) => hasName(entry) && !("type" in entry),
    body: (entry) => entry,
    fields: { name: "name", description: "description", schema: "parameters" },
    dropped: [],
  },
};

type ToolFormatId = keyof typeof TOOL_FORMATS;

const OTHER_EXAMPLES: { label: string; example: string }[] = [
  {
    label: `Toolshed export ("${EXPORT_FORMAT}")`,
    example: `{"format": "${EXPORT_FORMAT}", "version": 1, "tools": [{"name": "get_weather", "summary": "…", "description": "…", "inputSchema": {"type": "object"}}]}`,
  },
  { label: "MCP client configuration (Claude Desktop, Cursor)", example: '{"mcpServers": {"weather": {"command": "npx", "args": ["-y", "weather-mcp"]}}}' },
  { label: "MCP client configuration (VS Code)", example: '{"servers": {"weather": {"type": "http", "url": "https://example.com/mcp"}}}' },
];

/** The formats an import reads, each with the smallest file of it: what an unreadable file is answered with. */
export function acceptedFormatsText(): string {
  const formats = [...Object.values(TOOL_FORMATS), ...OTHER_EXAMPLES];
  return formats.map(({ label, example }) => `- ${label}: ${example}`).join("\n");
}

function unknownShape(what: string): ToolshedError {
  return new ToolshedError("bad_request", `${what}; an import reads one of these formats:\n${acceptedFormatsText()}`);
}

const MCP_CLIENT_CONFIG: ImportFormat = { id: "mcp-client-config", label: "MCP client configuration" };

/** A file detected as tools: its format, and its tools in the labelled-set or export form parseImport reads. */
export interface DetectedTools {
  kind: "tools";
  format: ImportFormat;
  /** What parseImport reads: the file itself for Toolshed's own formats, else a labelled set of its tools. */
  document: Entry;
  /** Problems found reading the format (a tool of another shape, fields that would be lost), by the file's fields. */
  problems: FieldError[];
  /** What the import leaves out on purpose, e.g. OpenAI's "strict". */
  notes: string[];
  /** A problem's field (tools.N.inputSchema) as the file names it (tools.N.function.parameters). */
  fieldInFile: (field: string) => string;
}

/** A file detected as an MCP client configuration: its servers, as written. */
export interface DetectedServers {
  kind: "servers";
  format: ImportFormat;
  /** `mcpServers` (Claude Desktop, Cursor), `servers` (VS Code's mcp.json) or `mcp.servers` (VS Code's settings). */
  at: string;
  servers: Entry;
}

/** The servers of an MCP client configuration, with where they are, or undefined for any other file. */
function clientConfigServers(doc: Entry): { at: string; servers: Entry } | undefined {
  if (isObject(doc.mcpServers)) return { at: "mcpServers", servers: doc.mcpServers };
  if (isObject(doc.servers)) return { at: "servers", servers: doc.servers };
  if (isObject(doc.mcp) && isObject(doc.mcp.servers)) return { at: "mcp.servers", servers: doc.mcp.servers };
  return undefined;
}

/** The format of a list's tools, by its first object entry; an empty list is a labelled set. */
function toolFormatOf(list: unknown[]): ToolFormatId | undefined {
  const first = list.find(isObject);
  if (!first) return list.length === 0 ? "labelled-set" : undefined;
  return (Object.keys(TOOL_FORMATS) as ToolFormatId[]).find((id) => TOOL_FORMATS[id].fits(first));
}

/** The tools list of a document, wherever its format keeps it: the file itself, `tools`, or a JSON-RPC answer's `result.tools`. */
function toolList(document: unknown): unknown[] | undefined {
  if (Array.isArray(document)) return document;
  if (!isObject(document)) return undefined;
  if (Array.isArray(document.tools)) return document.tools;
  if (isObject(document.result) && Array.isArray(document.result.tools)) return document.result.tools;
  return undefined;
}

/**
 * What a file is, from its shape: Toolshed's own export or labelled set, OpenAI (Chat Completions
 * or Responses), Anthropic or MCP tools (a list, `{"tools": […]}` or a tools/list answer), or an MCP
 * client configuration. Anything else is refused with one message naming every format with an
 * example.
 */
export function detectImport(document: unknown): DetectedTools | DetectedServers {
  if (isObject(document) && document.format !== undefined) return toolshedExport(document);
  const servers = isObject(document) ? clientConfigServers(document) : undefined;
  if (servers) return { kind: "servers", format: MCP_CLIENT_CONFIG, ...servers };
  const list = toolList(document);
  if (list) checkImportSize(list.length);
  if (!list) throw unknownShape(Array.isArray(document) || isObject(document) ? "This file has no tools list" : "This file is not a JSON object or list");
  const id = toolFormatOf(list) ?? (Array.isArray(document) ? undefined : "labelled-set");
  if (!id) throw unknownShape("The tools of this file are of no format an import reads");
  // Toolshed's own labelled set ({"tools": […]}, maybe with a stray "version"): parseImport reads it and says what is wrong with it.
  if (id === "labelled-set" && isObject(document) && Array.isArray(document.tools)) return toolshedExport(document);
  return convertTools(id, list);
}

function toolshedExport(document: Entry): DetectedTools {
  const label = document.format === undefined ? TOOL_FORMATS["labelled-set"].label : `Toolshed export (${EXPORT_FORMAT})`;
  return {
    kind: "tools",
    format: { id: document.format === undefined ? "labelled-set" : "toolshed", label },
    document,
    problems: [],
    notes: [],
    fieldInFile: (field) => field,
  };
}

/** A value at a dotted path of an entry ("function.name"). */
function at(entry: Entry, path: string): unknown {
  return path.split(".").reduce<unknown>((value, key) => (isObject(value) ? value[key] : undefined), entry);
}

/** The fields of an entry and of its body, each with its path in the entry. */
function fieldsOf(format: ToolFormat, entry: Entry): { key: string; path: string }[] {
  const body = format.body(entry);
  const own = Object.keys(entry).map((key) => ({ key, path: key }));
  if (body === entry) return own;
  const prefix = format.fields.name.split(".")[0];
  return [...own.filter(({ key }) => key !== prefix), ...Object.keys(body).map((key) => ({ key, path: `${prefix}.${key}` }))];
}

/** Whether a field (by its path in the entry) is the name, description or schema. */
const isRead = (format: ToolFormat, path: string) => Object.values(format.fields).includes(path);

/** The fields of an entry its format neither reads nor may leave out: they would be lost. */
function unreadFields(format: ToolFormat, entry: Entry, index: number): FieldError[] {
  return fieldsOf(format, entry)
    .filter(({ key, path }) => !isRead(format, path) && !format.dropped.includes(key))
    .map(({ path, key }) => ({
      field: `tools.${index}.${path}`,
      message: `"${key}" is not part of a tool here and would be lost: remove it to import the file.`,
    }));
}

/** One tool of the file as a labelled-set entry, or the problems that keep it out. */
function convertTool(format: ToolFormat, raw: unknown, index: number): { entry?: Entry; problems: FieldError[] } {
  if (!isObject(raw) || !format.fits(raw)) {
    return {
      problems: [
        { field: `tools.${index}`, message: `This entry is not one of the file's ${format.label}: each looks like ${format.example.replace(/^\[|\]$/g, "")}.` },
      ],
    };
  }
  const problems = unreadFields(format, raw, index);
  const schema = at(raw, format.fields.schema);
  const entry: Entry = { name: at(raw, format.fields.name), description: at(raw, format.fields.description) ?? "" };
  if (schema !== undefined) entry.parameters = schema;
  return { entry, problems };
}

/** What the import leaves out of the file's tools on purpose, field by field, with how many tools have it. */
function droppedNotes(format: ToolFormat, list: unknown[]): string[] {
  const counts = new Map<string, number>();
  for (const raw of list) {
    if (!isObject(raw) || !format.fits(raw)) continue;
    for (const { key } of fieldsOf(format, raw)) if (format.dropped.includes(key) && key !== "type") counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(
    ([key, count]) => `"${key}" (on ${count} ${count === 1 ? "tool" : "tools"}) is not kept: an imported tool is its name, description and input schema.`,
  );
}

/** Where each of parseImport's fields of a labelled-set tool is in a file of this format. */
function fieldMapper(format: ToolFormat): (field: string) => string {
  const names: Record<string, string> = {
    name: format.fields.name,
    summary: format.fields.description,
    description: format.fields.description,
    inputSchema: format.fields.schema,
    parameters: format.fields.schema,
  };
  return (field) =>
    field.replace(/^(tools\.\d+\.)(name|summary|description|inputSchema|parameters)(?=\.|$)/, (_, head: string, key: string) => head + names[key]);
}

function convertTools(id: ToolFormatId, list: unknown[]): DetectedTools {
  const format = TOOL_FORMATS[id];
  const problems: FieldError[] = [];
  const tools = list.map((raw, index) => {
    const converted = convertTool(format, raw, index);
    problems.push(...converted.problems);
    // A tool that cannot be read still holds its place (it is listed as invalid), so that every index stays the file's.
    return converted.entry ?? (isObject(raw) && hasName(raw) ? { name: raw.name } : {});
  });
  return {
    kind: "tools",
    format: { id, label: format.label },
    document: { tools },
    problems,
    notes: droppedNotes(format, list),
    fieldInFile: fieldMapper(format),
  };
}
