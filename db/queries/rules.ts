import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import { ToolshedError } from "@/lib/errors";
import { DEFAULT_RULES, type CatalogRules } from "@/lib/rules/catalog-rules";
import type { ProviderProfile } from "@/lib/rules/providers";
import { rewriteToolReferencesInRules, type ToolNameChanges } from "@/lib/rules/tool-references";
import { validateModelRules, validateOverrides } from "@/lib/rules/validate";
import type { InputSchema } from "@/lib/tools/types";
import type { FieldError } from "@/lib/tools/validate";
import type { DefinitionOverride } from "@/lib/rules/overrides";
import { writeTransaction, type Db } from "../client";
import { catalogRules, tools } from "../tables";
import { isUnchanged, recordChanges, type ChangeAuthor, type ChangeEntry, type Tx } from "./audit";
import { requireCatalog } from "./guards";

/** Gives a catalog the default rules if it has none yet (new catalogs, or ones made before rules existed). */
export async function ensureRules(tx: Tx, catalogId: string): Promise<void> {
  await tx
    .insert(catalogRules)
    .values({ catalogId, ...DEFAULT_RULES })
    .onConflictDoNothing();
}

export async function getRules(db: Db, catalogId: string): Promise<CatalogRules> {
  await requireCatalog(db, catalogId);
  return rulesOfCatalog(db, catalogId);
}

/** The rules of a catalog the caller has just read in the same transaction: no second look for it (a round trip on PostgreSQL). */
export async function rulesOfCatalog(db: Db, catalogId: string): Promise<CatalogRules> {
  const [row] = await db.select().from(catalogRules).where(eq(catalogRules.catalogId, catalogId)).limit(1);
  if (!row) return DEFAULT_RULES;
  const { catalogId: _id, ...rules } = row;
  return rules;
}

export async function toolNamesOf(tx: Tx, catalogId: string): Promise<Set<string>> {
  const rows = await tx.select({ name: tools.name }).from(tools).where(eq(tools.catalogId, catalogId));
  return new Set(rows.map((row) => row.name));
}

/** The input schemas of the tools whose parameter defaults these overrides set, as their sources define them now. */
async function overriddenSchemas(tx: Tx, catalogId: string, overrides: DefinitionOverride[]): Promise<(tool: string) => InputSchema | undefined> {
  const names = [...new Set(overrides.filter((override) => override.defaults !== undefined).map((override) => override.tool))];
  if (names.length === 0) return () => undefined;
  const rows = await tx
    .select({ name: tools.name, inputSchema: tools.inputSchema })
    .from(tools)
    .where(and(eq(tools.catalogId, catalogId), inArray(tools.name, names)));
  const schemas = new Map(rows.map((row) => [row.name, row.inputSchema]));
  return (tool) => schemas.get(tool);
}

function validateProviders(providers: ProviderProfile[]): FieldError[] {
  const seen = new Set<string>();
  const errors: FieldError[] = [];
  providers.forEach((provider, index) => {
    if (seen.has(provider.id)) errors.push({ field: `providers.${index}.id`, message: `Provider "${provider.id}" is listed twice.` });
    seen.add(provider.id);
  });
  return errors;
}

/** The audit subject kind of each part of the rules (the entry's subject is the part's name). */
export const RULE_SUBJECT_KINDS: Record<keyof CatalogRules, ChangeEntry["subjectKind"]> = {
  modelRules: "model-rule",
  providers: "provider",
  overrides: "override",
  searchServiceConfigured: "setting",
};

/** Writes the parts of `changes` that differ from `before` and returns their audit entries (none: nothing written). */
async function writeRules(tx: Tx, catalogId: string, before: CatalogRules, changes: Partial<CatalogRules>): Promise<ChangeEntry[]> {
  const changed = (Object.keys(RULE_SUBJECT_KINDS) as (keyof CatalogRules)[]).filter(
    (key) => changes[key] !== undefined && !isUnchanged(before[key], changes[key]),
  );
  if (changed.length === 0) return [];
  await ensureRules(tx, catalogId);
  await tx
    .update(catalogRules)
    .set(Object.fromEntries(changed.map((key) => [key, changes[key]])))
    .where(eq(catalogRules.catalogId, catalogId));
  return changed.map((key) => ({ subjectKind: RULE_SUBJECT_KINDS[key], subject: key, action: "update", before: before[key], after: changes[key] }));
}

/**
 * Replaces each part of the rules that `changes` names, all or nothing, and returns the result:
 * one change, so one revision, with an audit entry per part that differs; none if none does.
 */
export async function saveRules(db: Db, catalogId: string, changes: Partial<CatalogRules>, actor: ChangeAuthor): Promise<CatalogRules> {
  return writeTransaction(db, async (tx) => {
    const before = await getRules(tx, catalogId);
    const toolNames = await toolNamesOf(tx, catalogId);
    const errors = [
      ...(changes.modelRules ? validateModelRules(changes.modelRules, toolNames) : []),
      ...(changes.providers ? validateProviders(changes.providers) : []),
      ...(changes.overrides ? validateOverrides(changes.overrides, toolNames, await overriddenSchemas(tx, catalogId, changes.overrides)) : []),
    ];
    if (errors.length > 0) throw ToolshedError.fromFieldErrors(errors, "Invalid rules");
    const entries = await writeRules(tx, catalogId, before, changes);
    if (entries.length === 0) return before;
    await recordChanges(tx, catalogId, actor, entries);
    return getRules(tx, catalogId);
  });
}

/** Carries tools' renames and deletions into the model rules and overrides, inside the caller's transaction; returns their audit entries. */
export async function rewriteToolReferencesInCatalogRules(tx: Tx, catalogId: string, changes: ToolNameChanges): Promise<ChangeEntry[]> {
  const before = await getRules(tx, catalogId);
  return writeRules(tx, catalogId, before, rewriteToolReferencesInRules(before, changes));
}
