import "server-only";
import { and, asc, eq } from "drizzle-orm";
import { ToolshedError, notFound } from "@/lib/errors";
import { DEFAULT_AGENTS, type Agent } from "@/lib/rules/agents";
import { rewriteToolReferencesInAgent, type ToolNameChanges } from "@/lib/rules/tool-references";
import { validateAgents } from "@/lib/rules/validate";
import { writeTransaction, type Db } from "../client";
import { agents } from "../tables";
import type { AgentRow } from "../schema";
import { isUnchanged, recordChanges, type ChangeAuthor, type ChangeEntry, type Tx } from "./audit";
import { requireCatalog } from "./guards";
import { toolNamesOf } from "./rules";

function toAgent(row: AgentRow): Agent {
  return { name: row.name, mode: row.mode, description: row.description, permissions: row.permissions, baseTools: row.baseTools };
}

/** Gives a catalog the default agents if it has none (new catalogs, or ones made before agents existed). */
export async function ensureAgents(tx: Tx, catalogId: string): Promise<void> {
  if ((await tx.select({ id: agents.id }).from(agents).where(eq(agents.catalogId, catalogId)).limit(1)).length > 0) return;
  await tx.insert(agents).values(DEFAULT_AGENTS.map((agent) => ({ ...agent, catalogId })));
}

export async function listAgents(db: Db | Tx, catalogId: string): Promise<Agent[]> {
  return (await db.select().from(agents).where(eq(agents.catalogId, catalogId)).orderBy(asc(agents.id))).map(toAgent);
}

export async function getAgent(db: Db | Tx, catalogId: string, name: string): Promise<Agent> {
  await requireCatalog(db, catalogId);
  const [row] = await db
    .select()
    .from(agents)
    .where(and(eq(agents.catalogId, catalogId), eq(agents.name, name)))
    .limit(1);
  if (!row) throw notFound(`Agent "${name}" in catalog "${catalogId}"`, "agent");
  return toAgent(row);
}

/**
 * Creates an agent, or replaces the one named `previousName` (which may rename it); a name another
 * agent has is a conflict. The whole agent list is validated after the change; saving it unchanged
 * changes nothing (no revision).
 */
export async function saveAgent(db: Db, catalogId: string, agent: Agent, actor: ChangeAuthor, previousName?: string): Promise<Agent> {
  return writeTransaction(db, async (tx) => {
    await requireCatalog(tx, catalogId);
    const current = await listAgents(tx, catalogId);
    const before = previousName === undefined ? undefined : current.find((candidate) => candidate.name === previousName);
    if (previousName !== undefined && !before) throw notFound(`Agent "${previousName}" in catalog "${catalogId}"`, "agent");
    // Checked here, not left to validateAgents: it flags only the later of two equal names, which
    // is the other agent when the renamed one comes first in the list.
    if (current.some((candidate) => candidate !== before && candidate.name === agent.name)) {
      throw new ToolshedError("conflict", `An agent named "${agent.name}" already exists in this catalog.`, "name");
    }
    const next = before ? current.map((candidate) => (candidate === before ? agent : candidate)) : [...current, agent];
    const index = next.indexOf(agent);
    const errors = validateAgents(next, await toolNamesOf(tx, catalogId)).filter((error) => error.field.startsWith(`agents.${index}.`));
    if (errors.length > 0) {
      throw ToolshedError.fromFieldErrors(
        errors.map((error) => ({ ...error, field: error.field.replace(`agents.${index}.`, "") })),
        "Invalid agent",
      );
    }
    if (before && isUnchanged(before, agent)) return agent;
    if (before) {
      await tx
        .update(agents)
        .set({ ...agent, updatedAt: new Date() })
        .where(and(eq(agents.catalogId, catalogId), eq(agents.name, before.name)));
    } else {
      await tx.insert(agents).values({ ...agent, catalogId });
    }
    await recordChanges(tx, catalogId, actor, [{ subjectKind: "agent", subject: agent.name, action: before ? "update" : "create", before, after: agent }]);
    return agent;
  });
}

export async function deleteAgent(db: Db, catalogId: string, name: string, actor: string): Promise<void> {
  await writeTransaction(db, async (tx) => {
    const before = await getAgent(tx, catalogId, name);
    await tx.delete(agents).where(and(eq(agents.catalogId, catalogId), eq(agents.name, name)));
    await recordChanges(tx, catalogId, actor, [{ subjectKind: "agent", subject: name, action: "delete", before }]);
  });
}

/** Carries tools' renames and deletions into every agent that refers to them, inside the caller's transaction; returns their audit entries. */
export async function rewriteToolReferencesInAgents(tx: Tx, catalogId: string, changes: ToolNameChanges): Promise<ChangeEntry[]> {
  const entries: ChangeEntry[] = [];
  for (const before of await listAgents(tx, catalogId)) {
    const after = rewriteToolReferencesInAgent(before, changes);
    if (isUnchanged(before, after)) continue;
    await tx
      .update(agents)
      .set({ baseTools: after.baseTools, permissions: after.permissions, updatedAt: new Date() })
      .where(and(eq(agents.catalogId, catalogId), eq(agents.name, before.name)));
    entries.push({ subjectKind: "agent", subject: before.name, action: "update", before, after });
  }
  return entries;
}
