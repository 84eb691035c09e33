import "server-only";
import type { Db } from "@/db/client";
import { MCP_CONFIG_MAX_BYTES } from "@/db/import-job";
import { listMcpServers } from "@/db/queries/mcp-servers";
import { isInstanceAdmin, type Principal } from "@/lib/auth/policy";
import { type DetectedServers, detectImport } from "@/lib/catalogs/import-formats";
import {
  type ConfiguredServer,
  type PreviewedServer,
  type ServerImportPreview,
  type ServerImportResult,
  serversOfClientConfig,
} from "@/lib/catalogs/mcp-client-config";
import { ToolshedError } from "@/lib/errors";
import { instanceAdminPowerOf, type McpServerConfig, mcpPolicyProblem } from "@/lib/sources/mcp";
import type { FieldError } from "@/lib/tools/validate";

export type { ServerImportPreview, ServerImportResult };
import { requireCatalogAccess } from "./access";
import { addMcpServer } from "./sources";

/**
 * The MCP client configuration a body holds, or undefined for any other body (a tools file, or
 * something the tools import refuses in its own words). Only bodies of at most
 * MCP_CONFIG_MAX_BYTES are parsed here, on the request's thread: a configuration holds a few servers.
 */
export function mcpClientConfigOf(bytes: Uint8Array): DetectedServers | undefined {
  if (bytes.byteLength > MCP_CONFIG_MAX_BYTES) return undefined;
  try {
    const detected = detectImport(JSON.parse(new TextDecoder().decode(bytes)));
    return detected.kind === "servers" ? detected : undefined;
  } catch {
    return undefined;
  }
}

function targetOf(config: McpServerConfig): string {
  if (config.transport === "http") {
    const url = new URL(config.url);
    return `${url.origin}${url.pathname}`;
  }
  return [config.command, ...(config.args ?? []).map((arg) => (typeof arg === "string" ? arg : "********"))].join(" ");
}

/** What the operator's policy, the person's powers and the catalog's servers say against adding this server. */
function policyProblems(server: ConfiguredServer, at: string, principal: Principal, existing: Set<string>): FieldError[] {
  const config = server.config;
  if (!config) return [];
  const field = `${at}.${server.key}`;
  const problems: FieldError[] = [];
  if (existing.has(server.name)) problems.push({ field, message: `An MCP server named "${server.name}" already exists in this catalog.` });
  const power = instanceAdminPowerOf(config);
  if (power && !isInstanceAdmin(principal)) problems.push({ field, message: `Only an instance admin may ${power}.` });
  const refused = mcpPolicyProblem(config);
  if (refused) problems.push({ field: `${field}.${refused.field}`, message: refused.message });
  return problems;
}

function previewed(server: ConfiguredServer, problems: FieldError[]): PreviewedServer {
  const config = server.config;
  const secrets = config ? Object.keys((config.transport === "stdio" ? config.env : config.headers) ?? {}) : [];
  return {
    key: server.key,
    name: server.name,
    ...(config ? { transport: config.transport, target: targetOf(config) } : {}),
    secrets,
    problems: [...server.problems, ...problems],
    notes: server.notes,
  };
}

/**
 * What importing the configuration would add to the catalog: each server checked as POST
 * …/mcp-servers checks it (its fields, the stdio allowlist and network policy, instance admins
 * for stdio, a name not taken). Team admins only, like adding a server.
 */
export async function previewServerImport(db: Db, catalogId: string, detected: DetectedServers, principal: Principal): Promise<ServerImportPreview> {
  await requireCatalogAccess(principal, catalogId, "admin");
  const existing = new Set((await listMcpServers(db, catalogId)).map((server) => server.name));
  const servers = serversOfClientConfig(detected.servers, detected.at);
  return { format: detected.format, servers: servers.map((server) => previewed(server, policyProblems(server, detected.at, principal, existing))) };
}

/**
 * Adds every server of the configuration, each through the Sources page's own path (addMcpServer:
 * its checks again, secrets stored encrypted, one audited change, a first sync), once none has a
 * problem; with any, nothing is added and every problem is named.
 */
export async function importServers(db: Db, catalogId: string, detected: DetectedServers, principal: Principal): Promise<ServerImportResult> {
  const preview = await previewServerImport(db, catalogId, detected, principal);
  const problems = preview.servers.flatMap((server) => server.problems);
  if (problems.length > 0) throw ToolshedError.fromFieldErrors(problems, "Import rejected");
  if (preview.servers.length === 0) throw new ToolshedError("bad_request", `The file's "${detected.at}" holds no server.`, detected.at);
  const configs = serversOfClientConfig(detected.servers, detected.at).flatMap((server) => (server.config ? [server.config] : []));
  const added: ServerImportResult["servers"] = [];
  for (const config of configs) added.push({ name: config.name, sync: await addMcpServer(db, catalogId, config, principal) });
  return { format: preview.format, servers: added };
}
