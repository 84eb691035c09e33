import { catalogNorms, type FlaggedSelection, flaggedOf, poisoningFindings } from "../tools/poisoning";
import type { InputSchema, ToolSource } from "../tools/types";

/**
 * What an import does to a catalog, decided from the file's tools and the catalog's as they are:
 * db/queries/tool-import.ts reads the catalog, calls planImport and writes what it returns.
 */

/** A validated tool of an import (lib/catalogs/exchange.ts `parseImport`). */
export interface ImportDraft {
  name: string;
  /** Whose definition it is; "custom" when not said. */
  source?: ToolSource;
  summary: string;
  description: string;
  inputSchema: InputSchema;
  tags?: string[];
  enabled?: boolean;
}

/** A tool of the file left alone, and why. */
interface SkippedTool {
  name: string;
  reason: string;
}

/** What an import may change on a tool it updates. */
export type ImportedField = "summary" | "description" | "inputSchema" | "tags" | "enabled";

export interface ImportResult {
  created: string[];
  updated: string[];
  unchanged: string[];
  skipped: SkippedTool[];
  /** Tools it defines whose text has medium or high poisoning findings (lib/tools/poisoning.ts); only when there are any. */
  flagged?: FlaggedSelection[];
  revision: number;
}

/**
 * A catalog tool as an import compares it: JSON values as their stored text, compared and copied
 * as such (parsing 50,000 schemas to compare them would cost more than the import).
 */
export interface StoredTool {
  id: number;
  name: string;
  source: ToolSource;
  summary: string;
  description: string;
  inputSchema: string;
  enabled: boolean;
  tags: string;
  registered: boolean;
  requires: string;
  sourceRef: string | null;
  meta: string | null;
}

/** A tool an import creates: always custom, registered, with no requirements, source ref or meta. JSON values serialised. */
interface ImportCreate {
  name: string;
  summary: string;
  description: string;
  inputSchema: string;
  enabled: boolean;
  tags: string;
}

/** A tool an import updates: `managed` when its source defines it, and then only tags and enabled change. JSON values serialised. */
interface ImportUpdate {
  id: number;
  managed: boolean;
  summary: string;
  description: string;
  inputSchema: string;
  tags: string;
  enabled: boolean;
}

/** What an import writes: tools to create and to update, and an audit entry (JSON text) for each. */
export interface ImportPlan {
  creates: ImportCreate[];
  updates: ImportUpdate[];
  audit: [subject: string, before: string | null, after: string][];
  result: Omit<ImportResult, "revision">;
  /** The fields each updated tool changes, by its name. */
  changedFields: Map<string, ImportedField[]>;
}

/** The audit snapshot of a stored tool: the same fields, in the same order, as db/queries/tools.ts writes. */
function storedSnapshot(row: StoredTool) {
  return {
    name: row.name,
    source: row.source,
    summary: row.summary,
    description: row.description,
    inputSchema: JSON.parse(row.inputSchema) as unknown,
    enabled: row.enabled,
    tags: JSON.parse(row.tags) as unknown,
    registered: row.registered,
    requires: JSON.parse(row.requires) as unknown,
    sourceRef: row.sourceRef,
    meta: row.meta === null ? null : (JSON.parse(row.meta) as unknown),
  };
}

/**
 * Why a tool of the file is left alone, or undefined when it applies: a tool applies only to a
 * tool of the same source, or is new and custom. A source's tool is never created or defined by
 * an import: its source does that (an MCP server this catalog lacks, say, is not made up).
 */
function skipReason(draft: ImportDraft, source: ToolSource, row: StoredTool | undefined): string | undefined {
  if (row ? row.source === source : source === "custom") return undefined;
  if (!row) return `It comes from the ${source} source, which does not provide it in this catalog: add that source here and import again to take its state.`;
  if (source === "custom")
    return `Here "${draft.name}" comes from the ${row.source} source, which defines it: the file's custom definition is not imported over it.`;
  return `In the file it comes from the ${source} source, here from the ${row.source} source: not the same tool.`;
}

/**
 * The fields a draft changes on its stored tool: on a tool another source manages, only the state
 * a person may set (tags, enabled). Values as planImport stores them (schema and tags serialised).
 */
function changedFields(row: StoredTool, managed: boolean, next: { summary: string; description: string; schema: string; tags: string; enabled: boolean }) {
  const fields: ImportedField[] = [];
  if (!managed && next.summary !== row.summary) fields.push("summary");
  if (!managed && next.description !== row.description) fields.push("description");
  if (!managed && next.schema !== row.inputSchema) fields.push("inputSchema");
  if (next.tags !== row.tags) fields.push("tags");
  if (next.enabled !== row.enabled) fields.push("enabled");
  return fields;
}

/**
 * Works out an import against the catalog's tools (`existing`, by name), tool by tool by its
 * source in the file (custom when it says none): a new custom tool is created, an existing custom
 * one replaced; a tool another source manages takes only what a person may change on it (enabled,
 * tags) and its source keeps its definition. Anything else is skipped with the reason.
 */
export function planImport(drafts: ImportDraft[], existing: ReadonlyMap<string, StoredTool>): ImportPlan {
  const plan: ImportPlan = { creates: [], updates: [], audit: [], result: { created: [], updated: [], unchanged: [], skipped: [] }, changedFields: new Map() };
  for (const draft of drafts) {
    const row = existing.get(draft.name);
    const source = draft.source ?? "custom";
    const reason = skipReason(draft, source, row);
    if (reason !== undefined) {
      plan.result.skipped.push({ name: draft.name, reason });
      continue;
    }
    const schema = JSON.stringify(draft.inputSchema);
    const tags = draft.tags ?? [];
    if (!row) {
      const enabled = draft.enabled ?? true;
      plan.creates.push({ name: draft.name, summary: draft.summary, description: draft.description, inputSchema: schema, enabled, tags: JSON.stringify(tags) });
      const after = {
        name: draft.name,
        source: "custom",
        summary: draft.summary,
        description: draft.description,
        inputSchema: draft.inputSchema,
        enabled,
        tags,
        registered: true,
        requires: {},
        sourceRef: null,
        meta: null,
      };
      plan.audit.push([draft.name, null, JSON.stringify(after)]);
      plan.result.created.push(draft.name);
      continue;
    }
    const enabled = draft.enabled ?? row.enabled;
    const managed = source !== "custom";
    const fields = changedFields(row, managed, { summary: draft.summary, description: draft.description, schema, tags: JSON.stringify(tags), enabled });
    if (fields.length === 0) {
      plan.result.unchanged.push(draft.name);
      continue;
    }
    const before = storedSnapshot(row);
    const changes = managed ? { enabled, tags } : { summary: draft.summary, description: draft.description, inputSchema: draft.inputSchema, tags, enabled };
    plan.updates.push({
      id: row.id,
      managed,
      summary: draft.summary,
      description: draft.description,
      inputSchema: schema,
      tags: JSON.stringify(tags),
      enabled,
    });
    plan.audit.push([draft.name, JSON.stringify(before), JSON.stringify({ ...before, ...changes })]);
    plan.result.updated.push(draft.name);
    plan.changedFields.set(draft.name, fields);
  }
  const flagged = flaggedDrafts(drafts, existing, plan.result);
  if (flagged.length > 0) plan.result.flagged = flagged;
  return plan;
}

/** The tools whose definition the import writes (created, or custom and updated) with medium or high findings against the catalog's norms. */
function flaggedDrafts(drafts: readonly ImportDraft[], existing: ReadonlyMap<string, StoredTool>, result: ImportPlan["result"]): FlaggedSelection[] {
  const changed = new Set([...result.created, ...result.updated]);
  const written = drafts.filter((draft) => changed.has(draft.name) && (draft.source ?? "custom") === "custom");
  if (written.length === 0) return [];
  const norms = catalogNorms([...existing.values(), ...written]);
  return written.flatMap((draft) => flaggedOf(draft.name, poisoningFindings(draft, norms)) ?? []);
}
