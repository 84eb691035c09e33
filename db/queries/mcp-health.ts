import "server-only";
import { and, asc, desc, eq, lt } from "drizzle-orm";
import type { McpHealthState } from "@/lib/sources/mcp/health";
import { heldBackState, pinnedDefinitionOf } from "@/lib/tools/pinning";
import { mcpHealthChanges, tools } from "../tables";
import type { Tx } from "./audit";

/** How many changes of each server are kept: a server that flaps all day keeps its latest ones only. */
export const MCP_HEALTH_CHANGES_KEPT = 50;

/** A cause longer than this (a long stderr tail) is cut: the history is a timeline, the server's last error has the rest. */
const CAUSE_MAX_CHARS = 1_000;

/** One change of a server's health, as the Sources page and GET …/mcp-servers/{name}/health show it. */
export interface McpHealthChange {
  state: McpHealthState;
  /** Why (the error, what the connection waits for, the tools held back), scrubbed of secrets; null when there is nothing to say. */
  cause: string | null;
  at: string;
}

const bounded = (cause: string | null) => (cause !== null && cause.length > CAUSE_MAX_CHARS ? `${cause.slice(0, CAUSE_MAX_CHARS - 1)}…` : cause);

/**
 * Records a server's state if it is a change: the same state as the last one recorded adds
 * nothing, and neither does "starting" after "failing" (each retry of a server that stays down
 * opens a connection: only its coming back is news). The cause must already be scrubbed of secrets.
 * Keeps the last MCP_HEALTH_CHANGES_KEPT changes of the server. Returns whether it recorded one.
 */
export async function recordMcpHealthChange(tx: Tx, serverId: number, change: { state: McpHealthState; cause: string | null }): Promise<boolean> {
  const [last] = await tx
    .select({ state: mcpHealthChanges.state })
    .from(mcpHealthChanges)
    .where(eq(mcpHealthChanges.serverId, serverId))
    .orderBy(desc(mcpHealthChanges.id))
    .limit(1);
  if (last?.state === change.state || (change.state === "starting" && last?.state === "failing")) return false;
  await tx.insert(mcpHealthChanges).values({ serverId, state: change.state, cause: bounded(change.cause), at: new Date() });
  const [oldestKept] = await tx
    .select({ id: mcpHealthChanges.id })
    .from(mcpHealthChanges)
    .where(eq(mcpHealthChanges.serverId, serverId))
    .orderBy(desc(mcpHealthChanges.id))
    .limit(1)
    .offset(MCP_HEALTH_CHANGES_KEPT - 1);
  if (oldestKept) await tx.delete(mcpHealthChanges).where(and(eq(mcpHealthChanges.serverId, serverId), lt(mcpHealthChanges.id, oldestKept.id)));
  return true;
}

/** A server's last `limit` changes, newest first. */
export async function mcpHealthChangesOf(tx: Tx, serverId: number, limit = MCP_HEALTH_CHANGES_KEPT): Promise<McpHealthChange[]> {
  const rows = await tx.select().from(mcpHealthChanges).where(eq(mcpHealthChanges.serverId, serverId)).orderBy(desc(mcpHealthChanges.id)).limit(limit);
  return rows.map((row) => ({ state: row.state, cause: row.cause, at: row.at.toISOString() }));
}

/** The server's tools held back until an editor reviews their definition (lib/tools/pinning.ts), in catalog order. */
export async function heldBackToolsOf(tx: Tx, catalogId: string, server: string): Promise<string[]> {
  const rows = await tx
    .select()
    .from(tools)
    .where(and(eq(tools.catalogId, catalogId), eq(tools.source, "mcp"), eq(tools.sourceRef, server)))
    .orderBy(asc(tools.id));
  return rows.filter((row) => heldBackState(row.source, pinnedDefinitionOf(row), row.approvedDefinition) !== undefined).map((row) => row.name);
}
