import "server-only";
import { and, asc, eq } from "drizzle-orm";
import { ToolshedError, notFound } from "@/lib/errors";
import { DEFAULT_AGENTS, type Agent } from "@/lib/rules/agents";
import { rewriteToolReferencesInAgent, type ToolNameChanges } from "@/lib/rules/tool-references";
import { validateAgents } from "@/lib/rules/validate";
import { writeTransaction, type Db } from "../client";
import { agents, type AgentRow } from "../schema";
import { isUnchanged, recordChanges, type ChangeAuthor, type ChangeEntry, type Tx } from "./audit";
import { requireCatalog } from "./guards";
import { toolNamesOf } from "./rules";

function toAgent(row: AgentRow): Agent {
  return { name: row.name, mode: row.mode, description: row.description, permissions: row.permissions, baseTools: row.baseTools };
}

/** Gives a catalog the default agents if it has none (new catalogs, or ones made before agents existed). */
export function ensureAgents(tx: Tx, catalogId: string): void {
  if (tx.select({ id: agents.id }).from(agents).where(eq(agents.catalogId, catalogId)).get()) return;
  tx.insert(agents)
    .values(DEFAULT_AGENTS.map((agent) => ({ ...agent, catalogId })))
    .run();
}

export function listAgents(db: Db | Tx, catalogId: string): Agent[] {
  return db.select().from(agents).where(eq(agents.catalogId, catalogId)).orderBy(asc(agents.id)).all().map(toAgent);
}

export function getAgent(db: Db | Tx, catalogId: string, name: string): Agent {
  requireCatalog(db, catalogId);
  const row = db
    .select()
    .from(agents)
    .where(and(eq(agents.catalogId, catalogId), eq(agents.name, name)))
    .get();
  if (!row) throw notFound(`Agent "${name}" in catalog "${catalogId}"`, "agent");
  return toAgent(row);
}

/**
 * Creates an agent, or replaces the one named `previousName` (which may rename it); a name another
 * agent has is a conflict. The whole agent list is validated after the change; saving it unchanged
 * changes nothing (no revision).
 */
export function saveAgent(db: Db, catalogId: string, agent: Agent, actor: ChangeAuthor, previousName?: string): Agent {
  return writeTransaction(db, (tx) => {
    requireCatalog(tx, catalogId);
    const current = listAgents(tx, catalogId);
    const before = previousName === undefined ? undefined : current.find((candidate) => candidate.name === previousName);
    if (previousName !== undefined && !before) throw notFound(`Agent "${previousName}" in catalog "${catalogId}"`, "agent");
    // Checked here, not left to validateAgents: it flags only the later of two equal names, which
    // is the other agent when the renamed one comes first in the list.
    if (current.some((candidate) => candidate !== before && candidate.name === agent.name)) {
      throw new ToolshedError("conflict", `An agent named "${agent.name}" already exists in this catalog.`, "name");
    }
    const next = before ? current.map((candidate) => (candidate === before ? agent : candidate)) : [...current, agent];
    const index = next.indexOf(agent);
    const errors = validateAgents(next, toolNamesOf(tx, catalogId)).filter((error) => error.field.startsWith(`agents.${index}.`));
    if (errors.length > 0) {
      throw ToolshedError.fromFieldErrors(
        errors.map((error) => ({ ...error, field: error.field.replace(`agents.${index}.`, "") })),
        "Invalid agent",
      );
    }
    if (before && isUnchanged(before, agent)) return agent;
    if (before) {
      tx.update(agents)
        .set({ ...agent, updatedAt: new Date() })
        .where(and(eq(agents.catalogId, catalogId), eq(agents.name, before.name)))
        .run();
    } else {
      tx.insert(agents)
        .values({ ...agent, catalogId })
        .run();
    }
    recordChanges(tx, catalogId, actor, [{ subjectKind: "agent", subject: agent.name, action: before ? "update" : "create", before, after: agent }]);
    return agent;
  });
}

export function deleteAgent(db: Db, catalogId: string, name: string, actor: string): void {
  writeTransaction(db, (tx) => {
    const before = getAgent(tx, catalogId, name);
    tx.delete(agents)
      .where(and(eq(agents.catalogId, catalogId), eq(agents.name, name)))
      .run();
    recordChanges(tx, catalogId, actor, [{ subjectKind: "agent", subject: name, action: "delete", before }]);
  });
}

/** Carries tools' renames and deletions into every agent that refers to them, inside the caller's transaction; returns their audit entries. */
export function rewriteToolReferencesInAgents(tx: Tx, catalogId: string, changes: ToolNameChanges): ChangeEntry[] {
  return listAgents(tx, catalogId).flatMap((before) => {
    const after = rewriteToolReferencesInAgent(before, changes);
    if (isUnchanged(before, after)) return [];
    tx.update(agents)
      .set({ baseTools: after.baseTools, permissions: after.permissions, updatedAt: new Date() })
      .where(and(eq(agents.catalogId, catalogId), eq(agents.name, before.name)))
      .run();
    return [{ subjectKind: "agent" as const, subject: before.name, action: "update", before, after }];
  });
}
