import { eq } from "drizzle-orm";
import { ToolshedError } from "@/lib/errors";
import { DEFAULT_RULES, type CatalogRules } from "@/lib/rules/catalog-rules";
import type { ModelRule } from "@/lib/rules/model-rules";
import type { DefinitionOverride } from "@/lib/rules/overrides";
import type { ProviderProfile } from "@/lib/rules/providers";
import { validateModelRules, validateOverrides } from "@/lib/rules/validate";
import type { FieldError } from "@/lib/tools/validate";
import { writeTransaction, type Db } from "../client";
import { catalogRules, tools } from "../schema";
import { recordChanges, type Tx } from "./audit";
import { requireCatalog } from "./guards";


/** Gives a catalog the default rules if it has none yet (new catalogs, or ones made before rules existed). */
export function ensureRules(tx: Tx, catalogId: string): void {
  tx.insert(catalogRules).values({ catalogId, ...DEFAULT_RULES }).onConflictDoNothing().run();
}

export function getRules(db: Db, catalogId: string): CatalogRules {
  requireCatalog(db, catalogId);
  const row = db.select().from(catalogRules).where(eq(catalogRules.catalogId, catalogId)).get();
  if (!row) return DEFAULT_RULES;
  const { catalogId: _id, ...rules } = row;
  return rules;
}

export function toolNamesOf(tx: Tx, catalogId: string): Set<string> {
  return new Set(tx.select({ name: tools.name }).from(tools).where(eq(tools.catalogId, catalogId)).all().map((row) => row.name));
}

function rejectIfInvalid(errors: FieldError[], what: string): void {
  if (errors.length > 0) throw ToolshedError.fromFieldErrors(errors, `Invalid ${what}`);
}

/** Replaces one part of a catalog's rules, validated, audited and revision-bumped as one change. */
function saveRulesPart<K extends keyof CatalogRules>(
  db: Db,
  catalogId: string,
  key: K,
  value: CatalogRules[K],
  subjectKind: "model-rule" | "provider" | "override" | "setting",
  actor: string,
): CatalogRules {
  return writeTransaction(db, (tx) => {
    const before = getRules(tx as unknown as Db, catalogId);
    ensureRules(tx, catalogId);
    tx.update(catalogRules).set({ [key]: value }).where(eq(catalogRules.catalogId, catalogId)).run();
    recordChanges(tx, catalogId, actor, [{ subjectKind, subject: key, action: "update", before: before[key], after: value }]);
    return { ...before, [key]: value };
  });
}

export function saveModelRules(db: Db, catalogId: string, rules: ModelRule[], actor: string): CatalogRules {
  rejectIfInvalid(validateModelRules(rules, toolNamesOf(db, catalogId)), "model rules");
  return saveRulesPart(db, catalogId, "modelRules", rules, "model-rule", actor);
}

export function saveProviders(db: Db, catalogId: string, providers: ProviderProfile[], actor: string): CatalogRules {
  const seen = new Set<string>();
  const errors: FieldError[] = [];
  providers.forEach((provider, index) => {
    if (seen.has(provider.id)) errors.push({ field: `providers.${index}.id`, message: `Provider "${provider.id}" is listed twice.` });
    seen.add(provider.id);
  });
  rejectIfInvalid(errors, "providers");
  return saveRulesPart(db, catalogId, "providers", providers, "provider", actor);
}

export function saveSearchService(db: Db, catalogId: string, configured: boolean, actor: string): CatalogRules {
  return saveRulesPart(db, catalogId, "searchServiceConfigured", configured, "setting", actor);
}

export function saveOverrides(db: Db, catalogId: string, overrides: DefinitionOverride[], actor: string): CatalogRules {
  rejectIfInvalid(validateOverrides(overrides, toolNamesOf(db, catalogId)), "definition overrides");
  return saveRulesPart(db, catalogId, "overrides", overrides, "override", actor);
}

/** Replaces each part of the rules that `changes` names, all or nothing, and returns the result. */
export function saveRules(db: Db, catalogId: string, changes: Partial<CatalogRules>, actor: string): CatalogRules {
  return writeTransaction(db, (tx) => {
    const txDb = tx as unknown as Db;
    requireCatalog(tx, catalogId);
    if (changes.modelRules) saveModelRules(txDb, catalogId, changes.modelRules, actor);
    if (changes.providers) saveProviders(txDb, catalogId, changes.providers, actor);
    if (changes.overrides) saveOverrides(txDb, catalogId, changes.overrides, actor);
    if (changes.searchServiceConfigured !== undefined) saveSearchService(txDb, catalogId, changes.searchServiceConfigured, actor);
    return getRules(txDb, catalogId);
  });
}
