import { ToolshedError } from "../errors";
import type { Tool, ToolSource } from "../tools/types";
import { EMPTY_INPUT_SCHEMA, summarize, validateToolDraft, type FieldError } from "../tools/validate";

export const EXPORT_FORMAT = "toolshed.catalog";
export const EXPORT_VERSION = 1;
/**
 * The most tools one import takes, whichever way it arrives (API, page, small or large). Validation
 * and planning run off the main thread (the import worker) and the write is one short transaction
 * in chunks, so this is about memory, not about stalling the server.
 */
export const IMPORT_MAX_TOOLS = 50_000;

export interface CatalogExport {
  format: typeof EXPORT_FORMAT;
  version: typeof EXPORT_VERSION;
  exportedAt: string;
  catalog: { id: string; name: string; description: string; revision: number };
  tools: Pick<Tool, "name" | "source" | "summary" | "description" | "inputSchema" | "enabled" | "tags">[];
}

export interface ImportedTool {
  name: string;
  /** Whose definition it is: "custom" (also every labelled-set tool) is imported, any other source's only matched. */
  source: ToolSource;
  summary: string;
  description: string;
  inputSchema: Tool["inputSchema"];
  tags: string[];
  enabled?: boolean;
}

export function buildExport(catalog: CatalogExport["catalog"], tools: Tool[], now = new Date()): CatalogExport {
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: now.toISOString(),
    catalog,
    tools: tools.map(({ name, source, summary, description, inputSchema, enabled, tags }) => ({
      name,
      source,
      summary,
      description,
      inputSchema,
      enabled,
      tags,
    })),
  };
}

type Entry = Record<string, unknown>;

const LABELLED_SET_FIELDS = new Set(["name", "description", "parameters"]);
const SUPPORTED = `"${EXPORT_FORMAT}" version ${EXPORT_VERSION} (a Toolshed export), or a labelled set without "format" ({"tools": [{"name", "description", "parameters"}]})`;

/** Which of the two documents this is; anything else is refused rather than read with fields lost. */
function documentKind(doc: Entry): "export" | "labelled-set" {
  if (doc.format === undefined) {
    if (doc.version !== undefined) throw new ToolshedError("bad_request", `"version" without "format": imports take ${SUPPORTED}.`, "version");
    return "labelled-set";
  }
  if (doc.format !== EXPORT_FORMAT)
    throw new ToolshedError("bad_request", `Unknown format ${JSON.stringify(doc.format)}: imports take ${SUPPORTED}.`, "format");
  if (doc.version !== EXPORT_VERSION) {
    throw new ToolshedError(
      "bad_request",
      `Unsupported version ${JSON.stringify(doc.version)} of "${EXPORT_FORMAT}": this server reads version ${EXPORT_VERSION}.`,
      "version",
    );
  }
  return "export";
}

/** A labelled-set entry with other fields would silently lose them: name each one instead. */
function labelledSetProblems(entry: Entry, field: string): FieldError[] {
  return Object.keys(entry)
    .filter((key) => !LABELLED_SET_FIELDS.has(key))
    .map((key) => ({
      field: `${field}.${key}`,
      message: `A labelled-set tool has only name, description and parameters; "${key}" would be lost (to import full tools, use the "${EXPORT_FORMAT}" format).`,
    }));
}

/** A tool of a labelled selection set ({name, description, parameters}) as a custom tool. */
function fromLabelledSet(entry: Entry): Entry {
  const description = entry.description;
  return {
    name: entry.name,
    source: "custom",
    summary: typeof description === "string" ? summarize(description) : description,
    description,
    inputSchema: entry.parameters ?? EMPTY_INPUT_SCHEMA,
    tags: [],
  };
}

/** A tool entry of a Toolshed export; a missing summary is cut from the description. */
function fromExport(entry: Entry): Entry {
  return {
    name: entry.name,
    source: entry.source ?? "custom",
    summary: entry.summary ?? (typeof entry.description === "string" ? summarize(entry.description) : undefined),
    description: entry.description,
    inputSchema: entry.inputSchema,
    tags: entry.tags ?? [],
    ...(entry.enabled === undefined ? {} : { enabled: entry.enabled }),
  };
}

/** Refuses a document of more than IMPORT_MAX_TOOLS tools before any of them is looked at. */
export function checkImportSize(tools: number): void {
  if (tools > IMPORT_MAX_TOOLS) {
    throw new ToolshedError("too_large", `An import holds at most ${IMPORT_MAX_TOOLS} tools; this one has ${tools}.`, "tools");
  }
}

/**
 * Reads an import document — a Toolshed export or a labelled selection set — into tools,
 * checking everything first: it throws one error listing every problem, or returns them all valid.
 */
export function parseImport(document: unknown): ImportedTool[] {
  if (document === null || typeof document !== "object" || Array.isArray(document)) {
    throw new ToolshedError("bad_request", "An import must be a JSON object with a tools list.");
  }
  const doc = document as Entry;
  if (!Array.isArray(doc.tools)) {
    throw new ToolshedError("bad_request", 'An import needs a "tools" list.', "tools");
  }
  checkImportSize(doc.tools.length);
  const isExport = documentKind(doc) === "export";
  const problems: FieldError[] = [];
  const seen = new Map<string, number>();
  const tools = doc.tools.map((raw, index) => {
    if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
      problems.push({ field: `tools.${index}`, message: "Each tool must be a JSON object." });
      return undefined;
    }
    if (!isExport) problems.push(...labelledSetProblems(raw as Entry, `tools.${index}`));
    const entry = isExport ? fromExport(raw as Entry) : fromLabelledSet(raw as Entry);
    problems.push(...validateToolDraft(entry, `tools.${index}`));
    if (typeof entry.name === "string") {
      const first = seen.get(entry.name);
      if (first !== undefined) {
        problems.push({ field: `tools.${index}.name`, message: `"${entry.name}" appears twice (also at tools.${first}).` });
      } else seen.set(entry.name, index);
    }
    return entry as unknown as ImportedTool;
  });
  if (problems.length > 0) throw ToolshedError.fromFieldErrors(problems, "Import rejected");
  return tools as ImportedTool[];
}
