import "server-only";
import { eq } from "drizzle-orm";
import { ToolshedError } from "@/lib/errors";
import { DEFAULT_RULES, type CatalogRules } from "@/lib/rules/catalog-rules";
import type { ProviderProfile } from "@/lib/rules/providers";
import { rewriteToolReferencesInRules, type ToolNameChanges } from "@/lib/rules/tool-references";
import { validateModelRules, validateOverrides } from "@/lib/rules/validate";
import type { FieldError } from "@/lib/tools/validate";
import { writeTransaction, type Db } from "../client";
import { catalogRules, tools } from "../schema";
import { isUnchanged, recordChanges, type ChangeAuthor, type ChangeEntry, type Tx } from "./audit";
import { requireCatalog } from "./guards";

/** Gives a catalog the default rules if it has none yet (new catalogs, or ones made before rules existed). */
export function ensureRules(tx: Tx, catalogId: string): void {
  tx.insert(catalogRules)
    .values({ catalogId, ...DEFAULT_RULES })
    .onConflictDoNothing()
    .run();
}

export function getRules(db: Db, catalogId: string): CatalogRules {
  requireCatalog(db, catalogId);
  const row = db.select().from(catalogRules).where(eq(catalogRules.catalogId, catalogId)).get();
  if (!row) return DEFAULT_RULES;
  const { catalogId: _id, ...rules } = row;
  return rules;
}

export function toolNamesOf(tx: Tx, catalogId: string): Set<string> {
  return new Set(
    tx
      .select({ name: tools.name })
      .from(tools)
      .where(eq(tools.catalogId, catalogId))
      .all()
      .map((row) => row.name),
  );
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
function writeRules(tx: Tx, catalogId: string, before: CatalogRules, changes: Partial<CatalogRules>): ChangeEntry[] {
  const changed = (Object.keys(RULE_SUBJECT_KINDS) as (keyof CatalogRules)[]).filter(
    (key) => changes[key] !== undefined && !isUnchanged(before[key], changes[key]),
  );
  if (changed.length === 0) return [];
  ensureRules(tx, catalogId);
  tx.update(catalogRules)
    .set(Object.fromEntries(changed.map((key) => [key, changes[key]])))
    .where(eq(catalogRules.catalogId, catalogId))
    .run();
  return changed.map((key) => ({ subjectKind: RULE_SUBJECT_KINDS[key], subject: key, action: "update", before: before[key], after: changes[key] }));
}

/**
 * Replaces each part of the rules that `changes` names, all or nothing, and returns the result:
 * one change, so one revision, with an audit entry per part that differs; none if none does.
 */
export function saveRules(db: Db, catalogId: string, changes: Partial<CatalogRules>, actor: ChangeAuthor): CatalogRules {
  return writeTransaction(db, (tx) => {
    const before = getRules(tx as unknown as Db, catalogId);
    const toolNames = toolNamesOf(tx, catalogId);
    const errors = [
      ...(changes.modelRules ? validateModelRules(changes.modelRules, toolNames) : []),
      ...(changes.providers ? validateProviders(changes.providers) : []),
      ...(changes.overrides ? validateOverrides(changes.overrides, toolNames) : []),
    ];
    if (errors.length > 0) throw ToolshedError.fromFieldErrors(errors, "Invalid rules");
    const entries = writeRules(tx, catalogId, before, changes);
    if (entries.length === 0) return before;
    recordChanges(tx, catalogId, actor, entries);
    return getRules(tx as unknown as Db, catalogId);
  });
}

/** Carries tools' renames and deletions into the model rules and overrides, inside the caller's transaction; returns their audit entries. */
export function rewriteToolReferencesInCatalogRules(tx: Tx, catalogId: string, changes: ToolNameChanges): ChangeEntry[] {
  const before = getRules(tx as unknown as Db, catalogId);
  return writeRules(tx, catalogId, before, rewriteToolReferencesInRules(before, changes));
}
