import "server-only";
import { asc, eq, inArray, sql } from "drizzle-orm";
import { ToolshedError, notFound } from "@/lib/errors";
import { BUILTIN_TOOLS } from "@/lib/tools/builtin";
import { CATALOG_ID_PATTERN, slugify } from "@/lib/catalogs/slug";
import { writeTransaction, type Db } from "../client";
import { catalogs, tools, type CatalogRow } from "../schema";
import { ensureAgents } from "./agents";
import { isUnchanged, recordChanges } from "./audit";
import { ensureRules } from "./rules";
import { DEFAULT_TEAM } from "./teams";

export interface Catalog {
  id: string;
  teamId: string;
  name: string;
  description: string;
  revision: number;
}

export const CATALOG_NAME_MAX = 80;
export const CATALOG_DESCRIPTION_MAX = 2_000;

function toCatalog(row: CatalogRow): Catalog {
  return { id: row.id, teamId: row.teamId, name: row.name, description: row.description, revision: row.revision };
}

/** Every catalog, or those of the given teams. */
export function listCatalogs(db: Db, teamIds?: string[]): Catalog[] {
  const query = db.select().from(catalogs);
  const rows = teamIds ? query.where(inArray(catalogs.teamId, teamIds)) : query;
  return rows.orderBy(asc(catalogs.name)).all().map(toCatalog);
}

export interface CatalogSummary extends Catalog {
  toolCount: number;
  enabledCount: number;
  updatedAt: string;
}

/** The catalog list of the given teams with the counts a person scans it for. */
export function listCatalogSummaries(db: Db, teamIds: string[]): CatalogSummary[] {
  return db
    .select({
      id: catalogs.id,
      teamId: catalogs.teamId,
      name: catalogs.name,
      description: catalogs.description,
      revision: catalogs.revision,
      updatedAt: catalogs.updatedAt,
      toolCount: sql<number>`count(${tools.id})`,
      enabledCount: sql<number>`coalesce(sum(${tools.enabled}), 0)`,
    })
    .from(catalogs)
    .leftJoin(tools, eq(tools.catalogId, catalogs.id))
    .where(inArray(catalogs.teamId, teamIds))
    .groupBy(catalogs.id)
    .orderBy(asc(catalogs.name))
    .all()
    .map((row) => ({ ...row, updatedAt: row.updatedAt.toISOString() }));
}

export function findCatalog(db: Db, id: string): Catalog | undefined {
  const row = db.select().from(catalogs).where(eq(catalogs.id, id)).get();
  return row && toCatalog(row);
}

export function getCatalog(db: Db, id: string): Catalog {
  const catalog = findCatalog(db, id);
  if (!catalog) throw notFound(`Catalog "${id}"`, "catalog");
  return catalog;
}

function checkName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw new ToolshedError("bad_request", "Catalog name is required.", "name");
  if (trimmed.length > CATALOG_NAME_MAX) {
    throw new ToolshedError("bad_request", `Catalog name is longer than ${CATALOG_NAME_MAX} characters.`, "name");
  }
  return trimmed;
}

function checkDescription(description: string): string {
  if (description.length > CATALOG_DESCRIPTION_MAX) {
    throw new ToolshedError("too_large", `Catalog description is longer than ${CATALOG_DESCRIPTION_MAX} characters.`, "description");
  }
  return description.trim();
}

/** Creates a catalog with every built-in tool in it. The id is the slug of the name unless given. */
export function createCatalog(db: Db, input: { name: string; description?: string; id?: string; teamId?: string }, actor: string): Catalog {
  const teamId = input.teamId ?? DEFAULT_TEAM;
  const name = checkName(input.name);
  const description = checkDescription(input.description ?? "");
  const id = input.id ?? slugify(name);
  if (!CATALOG_ID_PATTERN.test(id)) {
    throw new ToolshedError(
      "bad_request",
      input.id ? "Catalog id must be lowercase letters, digits and '-', at most 48 characters." : "Catalog name needs at least one letter or digit.",
      input.id ? "id" : "name",
    );
  }
  return writeTransaction(db, (tx) => {
    if (tx.select({ id: catalogs.id }).from(catalogs).where(eq(catalogs.id, id)).get()) {
      throw new ToolshedError("conflict", `A catalog with id "${id}" already exists.`, input.id ? "id" : "name");
    }
    tx.insert(catalogs).values({ id, teamId, name, description }).run();
    tx.insert(tools)
      .values(BUILTIN_TOOLS.map((tool) => ({ ...tool, catalogId: id, source: "builtin" as const })))
      .run();
    ensureRules(tx, id);
    ensureAgents(tx, id);
    const revision = recordChanges(tx, id, actor, [{ subjectKind: "catalog", subject: id, action: "create", after: { name, description } }]);
    return { id, teamId, name, description, revision };
  });
}

export function updateCatalog(db: Db, id: string, input: { name?: string; description?: string }, actor: string): Catalog {
  return writeTransaction(db, (tx) => {
    const before = tx.select().from(catalogs).where(eq(catalogs.id, id)).get();
    if (!before) throw notFound(`Catalog "${id}"`, "catalog");
    const next = {
      name: input.name === undefined ? before.name : checkName(input.name),
      description: input.description === undefined ? before.description : checkDescription(input.description),
    };
    const previous = { name: before.name, description: before.description };
    if (isUnchanged(previous, next)) return toCatalog(before);
    tx.update(catalogs).set(next).where(eq(catalogs.id, id)).run();
    const revision = recordChanges(tx, id, actor, [{ subjectKind: "catalog", subject: id, action: "update", before: previous, after: next }]);
    return { id, teamId: before.teamId, ...next, revision };
  });
}

export function deleteCatalog(db: Db, id: string): void {
  const result = db.delete(catalogs).where(eq(catalogs.id, id)).run();
  if (result.changes === 0) throw notFound(`Catalog "${id}"`, "catalog");
}

/**
 * Brings a catalog made by an older release up to date: the built-ins it lacks, and default rules
 * and agents if it has none. Returns how many built-ins were added.
 */
export function upgradeCatalog(db: Db, catalogId: string, actor: string): number {
  return writeTransaction(db, (tx) => {
    ensureRules(tx, catalogId);
    ensureAgents(tx, catalogId);
    const present = new Set(
      tx
        .select({ name: tools.name })
        .from(tools)
        .where(eq(tools.catalogId, catalogId))
        .all()
        .map((t) => t.name),
    );
    const missing = BUILTIN_TOOLS.filter((tool) => !present.has(tool.name));
    if (missing.length === 0) return 0;
    tx.insert(tools)
      .values(missing.map((tool) => ({ ...tool, catalogId, source: "builtin" as const })))
      .run();
    recordChanges(
      tx,
      catalogId,
      actor,
      missing.map((tool) => ({ subjectKind: "tool" as const, subject: tool.name, action: "create", after: tool })),
    );
    return missing.length;
  });
}
