import "server-only";
import { and, asc, eq } from "drizzle-orm";
import type { ImportDraft, ImportResult } from "@/lib/catalogs/import-plan";
import { ToolshedError, notFound } from "@/lib/errors";
import { deletingTools, renamingTool, toolReferences, type ToolNameChanges, type ToolReferences } from "@/lib/rules/tool-references";
import { heldBackState, pinnedDefinitionOf } from "@/lib/tools/pinning";
import type { Tool, ToolMeta } from "@/lib/tools/types";
import { validateToolDraft, type ToolDraft } from "@/lib/tools/validate";
import { writeTransaction, type Db } from "../client";
import { tools } from "../tables";
import type { ToolRow } from "../schema";
import { listAgents, rewriteToolReferencesInAgents } from "./agents";
import { isUnchanged, recordChanges, type ChangeAuthor, type ChangeEntry, type Tx } from "./audit";
import { renameToolInConversations } from "./conversations";
import { renameToolInUsageReports } from "./usage-reports";
import { requireCatalog } from "./guards";
import { getRules, rewriteToolReferencesInCatalogRules } from "./rules";
import { importDrafts } from "./tool-import";

export interface ToolRecord extends Tool {
  /** The MCP server, plugin file or skill the tool came from; null for built-in and custom tools. */
  sourceRef: string | null;
  meta: ToolMeta | null;
  createdAt: string;
  updatedAt: string;
}

/** The fields a person may change on a tool that its source manages (built-in, MCP, …). */
const SOURCE_MANAGED_EDITABLE = new Set(["enabled", "tags"]);

export function toToolRecord(row: ToolRow): ToolRecord {
  const heldBack = heldBackState(row.source, pinnedDefinitionOf(row), row.approvedDefinition);
  return {
    name: row.name,
    source: row.source,
    summary: row.summary,
    description: row.description,
    inputSchema: row.inputSchema,
    enabled: row.enabled,
    tags: row.tags,
    registered: row.registered,
    requires: row.requires,
    sourceRef: row.sourceRef,
    meta: row.meta,
    ...(heldBack ? { heldBack } : {}),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The audit snapshot of a tool: its definition and state, without timestamps or what is derived from them. */
export function snapshot(row: ToolRow) {
  const { createdAt: _created, updatedAt: _updated, heldBack: _heldBack, ...tool } = toToolRecord(row);
  return tool;
}

export async function findRow(tx: Tx, catalogId: string, name: string): Promise<ToolRow | undefined> {
  const [row] = await tx
    .select()
    .from(tools)
    .where(and(eq(tools.catalogId, catalogId), eq(tools.name, name)));
  return row;
}

export async function listTools(db: Db, catalogId: string): Promise<ToolRecord[]> {
  await requireCatalog(db, catalogId);
  return (await db.select().from(tools).where(eq(tools.catalogId, catalogId)).orderBy(asc(tools.id))).map(toToolRecord);
}

export async function findTool(db: Db, catalogId: string, name: string): Promise<ToolRecord | undefined> {
  const row = await findRow(db, catalogId, name);
  return row && toToolRecord(row);
}

export async function getTool(db: Db, catalogId: string, name: string): Promise<ToolRecord> {
  await requireCatalog(db, catalogId);
  const tool = await findTool(db, catalogId, name);
  if (!tool) throw notFound(`Tool "${name}" in catalog "${catalogId}"`, "name");
  return tool;
}

interface CustomToolInput {
  name: string;
  summary: string;
  description: string;
  inputSchema: Tool["inputSchema"];
  tags?: string[];
  enabled?: boolean;
}

function validated(draft: ToolDraft): CustomToolInput {
  const errors = validateToolDraft(draft);
  if (errors.length > 0) throw ToolshedError.fromFieldErrors(errors, "Invalid tool");
  return draft as CustomToolInput;
}

export async function createCustomTool(db: Db, catalogId: string, draft: ToolDraft, actor: ChangeAuthor): Promise<ToolRecord> {
  const input = validated(draft);
  return writeTransaction(db, async (tx) => {
    await requireCatalog(tx, catalogId);
    if (await findRow(tx, catalogId, input.name)) {
      throw new ToolshedError("conflict", `A tool named "${input.name}" already exists in this catalog.`, "name");
    }
    const [row] = await tx
      .insert(tools)
      .values({ ...input, tags: input.tags ?? [], enabled: input.enabled ?? true, catalogId, source: "custom" })
      .returning();
    await recordChanges(tx, catalogId, actor, [{ subjectKind: "tool", subject: row.name, action: "create", after: snapshot(row) }]);
    return toToolRecord(row);
  });
}

export type ToolPatch = Partial<Record<keyof CustomToolInput, unknown>>;

function describeAction(before: ToolRow, patch: ToolPatch): string {
  const keys = Object.keys(patch);
  if (keys.length === 1 && keys[0] === "enabled") return patch.enabled ? "enable" : "disable";
  if (patch.name !== undefined && patch.name !== before.name) return "rename";
  return "update";
}

/**
 * Makes what refers to tools by name (agents, model rules, overrides: see tool-references.ts)
 * follow their renames and deletions, inside the caller's transaction, so that every agent and the
 * rules stay valid and editable. Returns what referred to them and the audit entries of the changes.
 */
export async function rewriteToolReferences(
  tx: Tx,
  catalogId: string,
  changes: ToolNameChanges,
): Promise<{ references: ToolReferences; entries: ChangeEntry[] }> {
  const references = toolReferences(await listAgents(tx, catalogId), await getRules(tx, catalogId), changes);
  const inAgents = await rewriteToolReferencesInAgents(tx, catalogId, changes);
  const inRules = await rewriteToolReferencesInCatalogRules(tx, catalogId, changes);
  return { references, entries: [...inAgents, ...inRules] };
}

/**
 * What a rename changes besides the tool, in its transaction: the audit record under the old name
 * too (after the one under the new name, so that the new name's history, which follows the rename
 * back to the old name's entries before it, does not list it twice: see listToolHistory), and
 * everything that refers to the tool by name, with the audit entries of the agents and rules changed.
 */
async function carryRename(tx: Tx, catalogId: string, from: string, to: string, change: ChangeEntry): Promise<ChangeEntry[]> {
  await renameToolInConversations(tx, catalogId, from, to);
  await renameToolInUsageReports(tx, catalogId, from, to);
  return [{ ...change, subject: from }, ...(await rewriteToolReferences(tx, catalogId, renamingTool(from, to))).entries];
}

export async function updateTool(db: Db, catalogId: string, name: string, patch: ToolPatch, actor: ChangeAuthor): Promise<ToolRecord> {
  return writeTransaction(db, async (tx) => {
    await requireCatalog(tx, catalogId);
    const before = await findRow(tx, catalogId, name);
    if (!before) throw notFound(`Tool "${name}" in catalog "${catalogId}"`, "name");
    const fields = Object.keys(patch).filter((key) => patch[key as keyof ToolPatch] !== undefined);
    if (fields.length === 0) throw new ToolshedError("bad_request", "Nothing to change: the request names no field.");
    if (before.source !== "custom") {
      const locked = fields.find((field) => !SOURCE_MANAGED_EDITABLE.has(field));
      if (locked) {
        throw new ToolshedError(
          "bad_request",
          `"${name}" is a ${before.source} tool: only enabled and tags can change here${before.source === "builtin" ? " (use a definition override to change its text)" : ""}.`,
          locked,
        );
      }
    }
    const merged = { ...snapshot(before), ...Object.fromEntries(fields.map((field) => [field, patch[field as keyof ToolPatch]])) };
    const errors = validateToolDraft(merged);
    if (errors.length > 0) throw ToolshedError.fromFieldErrors(errors, "Invalid tool");
    if (isUnchanged(snapshot(before), merged)) return toToolRecord(before);
    if (merged.name !== name && (await findRow(tx, catalogId, merged.name as string))) {
      throw new ToolshedError("conflict", `A tool named "${merged.name}" already exists in this catalog.`, "name");
    }
    const changes = Object.fromEntries(fields.map((field) => [field, merged[field as keyof typeof merged]]));
    const [after] = await tx
      .update(tools)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(tools.id, before.id))
      .returning();
    const change = {
      subjectKind: "tool" as const,
      subject: after.name,
      action: describeAction(before, patch),
      before: snapshot(before),
      after: snapshot(after),
    };
    await recordChanges(tx, catalogId, actor, [change, ...(after.name === name ? [] : await carryRename(tx, catalogId, name, after.name, change))]);
    return toToolRecord(after);
  });
}

/** What a delete did: the revision it made and what named the tool (those references went with it). */
export interface ToolDeletion {
  deleted: string;
  revision: number;
  references: ToolReferences;
}

/**
 * Deletes a custom tool and, in the same revision, every reference to it (agents, model rules,
 * overrides; each changed one audited), which would otherwise make them invalid. Conversations'
 * tool histories keep the name: they record what was used, and a turn drops what is gone, saying so.
 */
export async function deleteTool(db: Db, catalogId: string, name: string, actor: string): Promise<ToolDeletion> {
  return writeTransaction(db, async (tx) => {
    await requireCatalog(tx, catalogId);
    const row = await findRow(tx, catalogId, name);
    if (!row) throw notFound(`Tool "${name}" in catalog "${catalogId}"`, "name");
    if (row.source !== "custom") {
      throw new ToolshedError("bad_request", `"${name}" is a ${row.source} tool and cannot be deleted here: disable it instead.`, "name");
    }
    await tx.delete(tools).where(eq(tools.id, row.id));
    const { references, entries } = await rewriteToolReferences(tx, catalogId, deletingTools([name]));
    const revision = await recordChanges(tx, catalogId, actor, [{ subjectKind: "tool", subject: name, action: "delete", before: snapshot(row) }, ...entries]);
    return { deleted: name, revision, references };
  });
}

/**
 * Writes already-validated imported tools in one transaction (see planImport, lib/catalogs/import-plan.ts: new names become
 * custom tools, custom tools are replaced, a source's tools take only their enabled state and
 * tags, the rest is skipped with its reason). Large imports run as jobs off the main thread
 * (app/_services/imports.ts); this is the same write.
 */
export function importTools(db: Db, catalogId: string, drafts: ImportDraft[], actor: string): Promise<ImportResult> {
  return importDrafts(db, catalogId, drafts, actor);
}

/** The catalog's tools and, for an MCP tool, its server: what the usage of servers and the call-outs are made of. */
export async function listToolServers(db: Db, catalogId: string): Promise<{ name: string; server: string | null; enabled: boolean }[]> {
  return (
    await db
      .select({ name: tools.name, source: tools.source, sourceRef: tools.sourceRef, enabled: tools.enabled })
      .from(tools)
      .where(eq(tools.catalogId, catalogId))
  ).map((tool) => ({ name: tool.name, server: tool.source === "mcp" ? tool.sourceRef : null, enabled: tool.enabled }));
}
