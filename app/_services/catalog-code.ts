import "server-only";
import type { Db } from "@/db/client";
import { applyCatalogCode, planCatalogApply, readCatalogContents } from "@/db/queries/catalog-apply";
import { type Catalog, cloneCatalog, getCatalog } from "@/db/queries/catalogs";
import { listMcpServerConfigs, mcpServersWithSecrets } from "@/db/queries/mcp-servers";
import { type Access, accessIn, grants, type Principal, requireInstanceAdmin } from "@/lib/auth/policy";
import type { ApplyPlan, ApplySummary } from "@/lib/catalogs/apply-plan";
import { buildCatalogCode, formatCatalogCode, parseCatalogCode, readCatalogCodeText } from "@/lib/catalogs/catalog-code";
import type { CatalogCodeFormat } from "@/lib/catalogs/code-format";
import { maskReferences } from "@/lib/catalogs/secret-references";
import { ToolshedError } from "@/lib/errors";
import { instanceAdminPowerOf } from "@/lib/sources/mcp";
import { requireTeamAccess } from "./access";
import { syncLocalSources } from "./local-sources";
import { disconnectMcpServer, disconnectPeopleFrom } from "./sources";

/** The catalog as a file (lib/catalogs/catalog-code.ts). */
export async function exportCatalogCode(db: Db, catalogId: string, format: CatalogCodeFormat): Promise<string> {
  return formatCatalogCode(buildCatalogCode(await readCatalogContents(db, catalogId)), format);
}

/** A file's text as the request's content type says: JSON, or YAML. */
export function readCatalogFile(text: string, contentType: string | null): unknown {
  const type = (contentType ?? "").split(";")[0].trim().toLowerCase();
  if (type === "application/json") {
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new ToolshedError("bad_request", `The request body is not valid JSON: ${(error as Error).message}`);
    }
  }
  if (type === "application/yaml" || type === "application/x-yaml" || type === "text/yaml") return readCatalogCodeText(text);
  throw new ToolshedError("bad_request", "Send the catalog file as content-type application/yaml or application/json.");
}

/**
 * Who may change MCP servers through an apply: as through their own routes, a team admin, and an
 * instance admin for a server only an instance admin may add (stdio; any, while private addresses are allowed).
 */
function authorizeServers(principal: Principal, access: Access) {
  return (plan: ApplyPlan) => {
    const { create, replace, delete: deleted } = plan.mcpServers;
    if (create.length + replace.length + deleted.length === 0) return;
    if (!grants(access, "admin")) {
      throw new ToolshedError("forbidden", "This file adds, changes or deletes MCP servers: that needs the admin role in the catalog's team.");
    }
    for (const config of [...create, ...replace]) {
      const power = instanceAdminPowerOf(maskReferences(config));
      if (power) requireInstanceAdmin(principal, power);
    }
  };
}

/**
 * Applies a catalog file sent over HTTP (or only plans it: `dryRun`). Servers it adds or
 * reconfigures connect at the next periodic sync (a changed configuration reconnects by itself),
 * those it deletes are disconnected now, and so are people's own connections to those it writes
 * (each reconnects with the new configuration, or not at all when the server became shared). Its
 * `${env:…}` references are not resolved here: see resolveReferences.
 */
export async function applyCatalogFile(
  db: Db,
  catalogId: string,
  value: unknown,
  options: { dryRun: boolean; prune: boolean },
  caller: { principal: Principal; access: Access; actor: string },
): Promise<ApplySummary> {
  const document = parseCatalogCode(value);
  if (options.dryRun) return planCatalogApply(db, catalogId, document, options);
  const applied = await applyCatalogCode(
    db,
    catalogId,
    document,
    { prune: options.prune, env: undefined, authorize: authorizeServers(caller.principal, caller.access) },
    caller.actor,
  );
  for (const name of applied.deletedMcpServers) await disconnectMcpServer(catalogId, name);
  for (const name of applied.mcpServers) await disconnectPeopleFrom(catalogId, name);
  return applied.plan;
}

/**
 * Clones a catalog into a team the caller is admin of (by default the catalog's own). Its MCP servers come along with their
 * secrets, so copying them asks what adding them asks (an instance admin for a stdio server), and,
 * for a server with secrets, admin of the source's team too: they are that team's credentials.
 */
export async function cloneCatalogFor(
  db: Db,
  sourceId: string,
  target: { id?: string; name: string; team?: string },
  caller: { principal: Principal; actor: string },
): Promise<Catalog> {
  const sourceTeam = (await getCatalog(db, sourceId)).teamId;
  const team = target.team ?? sourceTeam;
  requireTeamAccess(caller.principal, team, "admin");
  for (const config of await listMcpServerConfigs(db, sourceId)) {
    const power = instanceAdminPowerOf(config);
    if (power) requireInstanceAdmin(caller.principal, power);
  }
  const withSecrets = await mcpServersWithSecrets(db, sourceId);
  const sourceAccess = accessIn(caller.principal, sourceTeam);
  if (withSecrets.length > 0 && !(sourceAccess && grants(sourceAccess, "admin"))) {
    throw new ToolshedError(
      "forbidden",
      `The MCP servers ${withSecrets.map((name) => `"${name}"`).join(", ")} hold secrets of team "${sourceTeam}": copying them needs the admin role there.`,
    );
  }
  const catalog = await cloneCatalog(db, sourceId, { id: target.id, name: target.name, teamId: team }, caller.actor);
  await syncLocalSources(db, catalog.id);
  return catalog;
}
