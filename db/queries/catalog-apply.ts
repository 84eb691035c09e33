import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import { type ApplyPlan, type ApplySummary, planApply } from "@/lib/catalogs/apply-plan";
import type { CatalogCode, CatalogContents } from "@/lib/catalogs/catalog-code";
import { resolveReferences } from "@/lib/catalogs/secret-references";
import { ToolshedError } from "@/lib/errors";
import type { McpServerConfig } from "@/lib/sources/mcp";
import { chunksOf } from "../chunks";
import { writeTransaction, type Db } from "../client";
import { agents, catalogRules, catalogs, tools } from "../tables";
import { listAgents } from "./agents";
import { type ChangeEntry, recordChanges, type Tx } from "./audit";
import { deleteMcpServersIn, listMcpServerConfigs, writeMcpServers } from "./mcp-servers";
import { ensureRules, getRules, RULE_SUBJECT_KINDS } from "./rules";
import { findRow, listTools, snapshot } from "./tools";

/** The catalog as a catalog file is made from and compared with (lib/catalogs/catalog-code.ts). Throws the catalog's 404. */
export async function readCatalogContents(db: Db | Tx, catalogId: string): Promise<CatalogContents> {
  return {
    tools: await listTools(db, catalogId),
    agents: await listAgents(db, catalogId),
    rules: await getRules(db, catalogId),
    mcpServers: await listMcpServerConfigs(db, catalogId),
  };
}

export interface ApplyOptions {
  prune: boolean;
  /**
   * Where the file's `${env:NAME}` references are read from when a server is written: the
   * environment of `toolshed apply`; undefined for the HTTP API (see resolveReferences).
   */
  env: Record<string, string | undefined> | undefined;
  /** Checked against the plan inside the transaction, before anything is written: throw to refuse (who may change MCP servers). */
  authorize?: (plan: ApplyPlan) => void;
}

export interface ApplyResult {
  plan: ApplySummary;
  /** The revision the apply made; the catalog's unchanged one when it changed nothing. */
  revision: number;
  /** Servers added or reconfigured: the next sync connects them. */
  mcpServers: string[];
  /** Servers deleted: to disconnect. */
  deletedMcpServers: string[];
}

/** What an apply would do, written nowhere (the same reading and checks as applyCatalogCode, secrets aside). */
export async function planCatalogApply(db: Db, catalogId: string, document: CatalogCode, options: Pick<ApplyOptions, "prune">): Promise<ApplySummary> {
  return planApply(document, await readCatalogContents(db, catalogId), options).summary;
}

/** The servers to write with their references resolved, or one error naming each reference that is not set. */
function resolvedServers(document: CatalogCode, configs: McpServerConfig[], env: ApplyOptions["env"]): McpServerConfig[] {
  const index = (name: string) => document.mcpServers?.findIndex((server) => server.name === name) ?? -1;
  const problems = [];
  const resolved = [];
  for (const config of configs) {
    const result = resolveReferences(config, env, `mcpServers.${index(config.name)}`);
    problems.push(...result.problems);
    resolved.push(result.config);
  }
  if (problems.length > 0) throw ToolshedError.fromFieldErrors(problems, "Catalog file rejected");
  return resolved;
}

async function writeTools(tx: Tx, catalogId: string, plan: ApplyPlan["tools"]): Promise<ChangeEntry[]> {
  const entries: ChangeEntry[] = [];
  for (const chunk of chunksOf(plan.create)) {
    const rows = await tx
      .insert(tools)
      .values(chunk.map((tool) => ({ ...tool, catalogId })))
      .returning();
    entries.push(...rows.map((row) => ({ subjectKind: "tool" as const, subject: row.name, action: "create", after: snapshot(row) })));
  }
  for (const { name, changes } of plan.update) {
    const before = await findRow(tx, catalogId, name);
    if (!before) continue;
    const [after] = await tx
      .update(tools)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(tools.id, before.id))
      .returning();
    entries.push({ subjectKind: "tool", subject: name, action: "update", before: snapshot(before), after: snapshot(after) });
  }
  for (const names of chunksOf(plan.delete)) {
    const gone = await tx
      .delete(tools)
      .where(and(eq(tools.catalogId, catalogId), inArray(tools.name, names)))
      .returning();
    entries.push(...gone.map((row) => ({ subjectKind: "tool" as const, subject: row.name, action: "delete", before: snapshot(row) })));
  }
  return entries;
}

async function writeAgents(tx: Tx, catalogId: string, plan: ApplyPlan["agents"]): Promise<ChangeEntry[]> {
  const before = new Map((await listAgents(tx, catalogId)).map((agent) => [agent.name, agent]));
  const entries: ChangeEntry[] = [];
  for (const agent of plan.create) {
    await tx.insert(agents).values({ ...agent, catalogId });
    entries.push({ subjectKind: "agent", subject: agent.name, action: "create", after: agent });
  }
  for (const agent of plan.update) {
    await tx
      .update(agents)
      .set({ ...agent, updatedAt: new Date() })
      .where(and(eq(agents.catalogId, catalogId), eq(agents.name, agent.name)));
    entries.push({ subjectKind: "agent", subject: agent.name, action: "update", before: before.get(agent.name), after: agent });
  }
  if (plan.delete.length > 0) {
    await tx.delete(agents).where(and(eq(agents.catalogId, catalogId), inArray(agents.name, plan.delete)));
    entries.push(...plan.delete.map((name) => ({ subjectKind: "agent" as const, subject: name, action: "delete", before: before.get(name) })));
  }
  return entries;
}

async function writeRules(tx: Tx, catalogId: string, changes: ApplyPlan["rules"]): Promise<ChangeEntry[]> {
  const parts = Object.keys(changes) as (keyof typeof changes)[];
  if (parts.length === 0) return [];
  const before = await getRules(tx, catalogId);
  await ensureRules(tx, catalogId);
  await tx.update(catalogRules).set(changes).where(eq(catalogRules.catalogId, catalogId));
  return parts.map((part) => ({ subjectKind: RULE_SUBJECT_KINDS[part], subject: part, action: "update", before: before[part], after: changes[part] }));
}

/** Deletes the tools of deleted servers (their audit history stays), as a server's deletion does. */
async function deleteServerTools(tx: Tx, catalogId: string, servers: string[]): Promise<ChangeEntry[]> {
  if (servers.length === 0) return [];
  const gone = await tx
    .delete(tools)
    .where(and(eq(tools.catalogId, catalogId), eq(tools.source, "mcp"), inArray(tools.sourceRef, servers)))
    .returning();
  return gone.map((row) => ({ subjectKind: "tool" as const, subject: row.name, action: "delete", before: snapshot(row) }));
}

/**
 * Applies a catalog file in one write transaction: plans against the catalog as it is inside it
 * (lib/catalogs/apply-plan.ts), resolves the secrets of the servers it writes, then writes tools,
 * agents, rules and servers with an audit entry each and one revision. An error anywhere writes nothing.
 */
export function applyCatalogCode(db: Db, catalogId: string, document: CatalogCode, options: ApplyOptions, actor: string): Promise<ApplyResult> {
  return writeTransaction(db, async (tx) => {
    const plan = planApply(document, await readCatalogContents(tx, catalogId), options);
    options.authorize?.(plan);
    const [created, replaced] = [plan.mcpServers.create, plan.mcpServers.replace].map((configs) => resolvedServers(document, configs, options.env));
    const field = (name: string) => `mcpServers.${document.mcpServers?.findIndex((server) => server.name === name)}`;
    // Servers first: a deleted server's tools go before the file's tools are written, and new servers exist for the agents that name their tools.
    const entries = [
      ...(await deleteMcpServersIn(tx, catalogId, plan.mcpServers.delete)),
      ...(await deleteServerTools(tx, catalogId, plan.mcpServers.delete)),
      ...(await writeMcpServers(tx, catalogId, [...created, ...replaced], field)),
      ...(await writeTools(tx, catalogId, plan.tools)),
      ...(await writeAgents(tx, catalogId, plan.agents)),
      ...(await writeRules(tx, catalogId, plan.rules)),
    ];
    const revision =
      entries.length > 0
        ? await recordChanges(tx, catalogId, actor, entries)
        : (await tx.select({ revision: catalogs.revision }).from(catalogs).where(eq(catalogs.id, catalogId)))[0].revision;
    return {
      plan: plan.summary,
      revision,
      mcpServers: [...created, ...replaced].map((server) => server.name),
      deletedMcpServers: plan.mcpServers.delete,
    };
  });
}
