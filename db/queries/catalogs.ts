import "server-only";
import { randomBytes } from "node:crypto";
import { asc, eq, inArray, sql } from "drizzle-orm";
import { ToolshedError, notFound } from "@/lib/errors";
import { BUILTIN_TOOLS } from "@/lib/tools/builtin";
import { CATALOG_ID_MAX, CATALOG_ID_PATTERN, slugify } from "@/lib/catalogs/slug";
import { writeTransaction, type Db } from "../client";
import { chunksOf } from "../chunks";
import { agents, catalogRules, catalogs, mcpServers, tools } from "../tables";
import type { CatalogRow } from "../schema";
import { ensureAgents } from "./agents";
import { isUnchanged, recordChanges, type Tx } from "./audit";
import { deleteCatalogPromptApprovals } from "./prompt-approvals";
import { ensureRules } from "./rules";
import { DEFAULT_TEAM } from "./teams";

export interface Catalog {
  id: string;
  teamId: string;
  name: string;
  description: string;
  revision: number;
}

const CATALOG_NAME_MAX = 80;
const CATALOG_DESCRIPTION_MAX = 2_000;

function toCatalog(row: CatalogRow): Catalog {
  return { id: row.id, teamId: row.teamId, name: row.name, description: row.description, revision: row.revision };
}

/** Every catalog, or those of the given teams. */
export async function listCatalogs(db: Db, teamIds?: string[]): Promise<Catalog[]> {
  const query = db.select().from(catalogs);
  const rows = await (teamIds ? query.where(inArray(catalogs.teamId, teamIds)) : query).orderBy(asc(catalogs.name));
  return rows.map(toCatalog);
}

export interface CatalogSummary extends Catalog {
  toolCount: number;
  enabledCount: number;
  updatedAt: string;
}

/** The catalog list of the given teams with the counts a person scans it for. */
export async function listCatalogSummaries(db: Db, teamIds: string[]): Promise<CatalogSummary[]> {
  const rows = await db
    .select({
      id: catalogs.id,
      teamId: catalogs.teamId,
      name: catalogs.name,
      description: catalogs.description,
      revision: catalogs.revision,
      updatedAt: catalogs.updatedAt,
      toolCount: sql<number>`count(${tools.id})`.mapWith(Number),
      enabledCount: sql<number>`coalesce(sum(case when ${tools.enabled} then 1 else 0 end), 0)`.mapWith(Number),
    })
    .from(catalogs)
    .leftJoin(tools, eq(tools.catalogId, catalogs.id))
    .where(inArray(catalogs.teamId, teamIds))
    .groupBy(catalogs.id)
    .orderBy(asc(catalogs.name));
  return rows.map((row) => ({ ...row, updatedAt: row.updatedAt.toISOString() }));
}

export async function findCatalog(db: Db, id: string): Promise<Catalog | undefined> {
  const [row] = await db.select().from(catalogs).where(eq(catalogs.id, id));
  return row && toCatalog(row);
}

export async function getCatalog(db: Db, id: string): Promise<Catalog> {
  const catalog = await findCatalog(db, id);
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

const catalogExists = async (tx: Tx, id: string) => (await tx.select({ id: catalogs.id }).from(catalogs).where(eq(catalogs.id, id))).length > 0;

/** The slug with a random suffix, within the id's length: unguessable, so it says nothing about which other ids exist. */
function suffixed(slug: string): string {
  const suffix = `-${randomBytes(3).toString("hex")}`;
  return `${slug.slice(0, CATALOG_ID_MAX - suffix.length).replace(/-+$/, "")}${suffix}`;
}

/**
 * Creates a catalog with every built-in tool in it. The id is the slug of the name unless given.
 * Ids are one namespace across teams, so a taken id must not tell whose it is: a given id that is
 * taken, by this team or another, is a 409 in the same words; a slug that is taken gets a random
 * suffix instead.
 */
/** The checked name, description and id (see createCatalog) of a new catalog, its row inserted in the caller's transaction. */
async function insertCatalogRow(tx: Tx, input: { name: string; description?: string; id?: string; teamId?: string }): Promise<Omit<Catalog, "revision">> {
  const teamId = input.teamId ?? DEFAULT_TEAM;
  const name = checkName(input.name);
  const description = checkDescription(input.description ?? "");
  const slug = input.id ?? slugify(name);
  if (!CATALOG_ID_PATTERN.test(slug)) {
    throw new ToolshedError(
      "bad_request",
      input.id ? "Catalog id must be lowercase letters, digits and '-', at most 48 characters." : "Catalog name needs at least one letter or digit.",
      input.id ? "id" : "name",
    );
  }
  let id = slug;
  while (await catalogExists(tx, id)) {
    if (input.id) throw new ToolshedError("conflict", `The id "${id}" is not available: choose another.`, "id");
    id = suffixed(slug);
  }
  await tx.insert(catalogs).values({ id, teamId, name, description });
  return { id, teamId, name, description };
}

/**
 * Creates a catalog with every built-in tool in it. The id is the slug of the name unless given.
 * Ids are one namespace across teams, so a taken id must not tell whose it is: a given id that is
 * taken, by this team or another, is a 409 in the same words; a slug that is taken gets a random
 * suffix instead.
 */
export async function createCatalog(db: Db, input: { name: string; description?: string; id?: string; teamId?: string }, actor: string): Promise<Catalog> {
  return writeTransaction(db, async (tx) => {
    const catalog = await insertCatalogRow(tx, input);
    await tx.insert(tools).values(BUILTIN_TOOLS.map((tool) => ({ ...tool, catalogId: catalog.id, source: "builtin" as const })));
    await ensureRules(tx, catalog.id);
    await ensureAgents(tx, catalog.id);
    const after = { name: catalog.name, description: catalog.description };
    const revision = await recordChanges(tx, catalog.id, actor, [{ subjectKind: "catalog", subject: catalog.id, action: "create", after }]);
    return { ...catalog, revision };
  });
}

/**
 * A new catalog (named, and its id chosen, as createCatalog does) with a copy of everything that
 * defines another: its tools as they are (approvals of MCP definitions included), rules, agents and
 * MCP servers with their secrets (still encrypted, with the same key); not its decisions,
 * conversations or evaluations. One transaction, one revision. The caller checks who may copy what.
 */
export async function cloneCatalog(
  db: Db,
  sourceId: string,
  input: { name: string; description?: string; id?: string; teamId: string },
  actor: string,
): Promise<Catalog> {
  return writeTransaction(db, async (tx) => {
    const source = await getCatalog(tx, sourceId);
    const catalog = await insertCatalogRow(tx, { ...input, description: input.description ?? source.description });
    const sourceTools = await tx.select().from(tools).where(eq(tools.catalogId, sourceId)).orderBy(asc(tools.id));
    for (const chunk of chunksOf(sourceTools)) {
      await tx.insert(tools).values(chunk.map(({ id: _id, createdAt: _created, updatedAt: _updated, ...tool }) => ({ ...tool, catalogId: catalog.id })));
    }
    const [rules] = await tx.select().from(catalogRules).where(eq(catalogRules.catalogId, sourceId));
    if (rules) await tx.insert(catalogRules).values({ ...rules, catalogId: catalog.id });
    else await ensureRules(tx, catalog.id);
    const sourceAgents = await tx.select().from(agents).where(eq(agents.catalogId, sourceId)).orderBy(asc(agents.id));
    if (sourceAgents.length > 0) {
      await tx
        .insert(agents)
        .values(sourceAgents.map(({ id: _id, createdAt: _created, updatedAt: _updated, ...agent }) => ({ ...agent, catalogId: catalog.id })));
    } else await ensureAgents(tx, catalog.id);
    const servers = await tx.select().from(mcpServers).where(eq(mcpServers.catalogId, sourceId)).orderBy(asc(mcpServers.name));
    if (servers.length > 0) {
      await tx.insert(mcpServers).values(servers.map(({ name, config, secrets }) => ({ catalogId: catalog.id, name, config, secrets })));
    }
    const after = { name: catalog.name, description: catalog.description, clonedFrom: sourceId };
    const revision = await recordChanges(tx, catalog.id, actor, [{ subjectKind: "catalog", subject: catalog.id, action: "create", after }]);
    return { ...catalog, revision };
  });
}

export async function updateCatalog(db: Db, id: string, input: { name?: string; description?: string }, actor: string): Promise<Catalog> {
  return writeTransaction(db, async (tx) => {
    const [before] = await tx.select().from(catalogs).where(eq(catalogs.id, id));
    if (!before) throw notFound(`Catalog "${id}"`, "catalog");
    const next = {
      name: input.name === undefined ? before.name : checkName(input.name),
      description: input.description === undefined ? before.description : checkDescription(input.description),
    };
    const previous = { name: before.name, description: before.description };
    if (isUnchanged(previous, next)) return toCatalog(before);
    await tx.update(catalogs).set(next).where(eq(catalogs.id, id));
    const revision = await recordChanges(tx, id, actor, [{ subjectKind: "catalog", subject: id, action: "update", before: previous, after: next }]);
    return { id, teamId: before.teamId, ...next, revision };
  });
}

export async function deleteCatalog(db: Db, id: string): Promise<void> {
  await writeTransaction(db, async (tx) => {
    const deleted = await tx.delete(catalogs).where(eq(catalogs.id, id)).returning({ id: catalogs.id });
    if (deleted.length === 0) throw notFound(`Catalog "${id}"`, "catalog");
    // Kept in app_settings, which no foreign key ties to the catalog.
    await deleteCatalogPromptApprovals(tx, id);
  });
}

/**
 * Brings a catalog made by an older release up to date: the built-ins it lacks, and default rules
 * and agents if it has none. Returns how many built-ins were added.
 */
export async function upgradeCatalog(db: Db, catalogId: string, actor: string): Promise<number> {
  return writeTransaction(db, async (tx) => {
    await ensureRules(tx, catalogId);
    await ensureAgents(tx, catalogId);
    const present = new Set((await tx.select({ name: tools.name }).from(tools).where(eq(tools.catalogId, catalogId))).map((t) => t.name));
    const missing = BUILTIN_TOOLS.filter((tool) => !present.has(tool.name));
    if (missing.length === 0) return 0;
    await tx.insert(tools).values(missing.map((tool) => ({ ...tool, catalogId, source: "builtin" as const })));
    await recordChanges(
      tx,
      catalogId,
      actor,
      missing.map((tool) => ({ subjectKind: "tool" as const, subject: tool.name, action: "create", after: tool })),
    );
    return missing.length;
  });
}

/** The revision of each of these catalogs (a deleted one is missing). */
export async function catalogRevisions(db: Db, ids: string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db.select({ id: catalogs.id, revision: catalogs.revision }).from(catalogs).where(inArray(catalogs.id, ids));
  return new Map(rows.map((row) => [row.id, row.revision]));
}
