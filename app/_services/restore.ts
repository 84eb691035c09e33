import "server-only";
import type { Db } from "@/db/client";
import { listAgents, saveAgent } from "@/db/queries/agents";
import { findAuditEntry, listAudit, listToolHistory, withActorNames, type ChangeAuthor } from "@/db/queries/audit";
import { getCatalog } from "@/db/queries/catalogs";
import { getRules, RULE_SUBJECT_KINDS, saveRules } from "@/db/queries/rules";
import { createCustomTool, findTool, updateTool, type ToolRecord } from "@/db/queries/tools";
import type { AuditRow } from "@/db/schema";
import { agentBody, rulesBody } from "@/lib/api-schemas";
import { agentRestorePreview, type RestorePreview, rulesRestorePreview, toolRestorePreview } from "@/lib/catalogs/restore-preview";
import { ToolshedError } from "@/lib/errors";
import { parseWith } from "@/lib/http";
import type { Agent } from "@/lib/rules/agents";
import type { CatalogRules } from "@/lib/rules/catalog-rules";

/** Which side of an audit entry to bring back: the version it replaced, or the one it made. */
export type RestoredVersion = "before" | "after";

export interface RestoreRequest {
  entry: number;
  version: RestoredVersion;
  /** For a tool's entry: the tool's name now (it may have been renamed since); by default the entry's subject. */
  tool?: string;
}

/** What a restore did: `changed` is false when that version was already the current one (nothing was written). */
export type RestoreResult = { changed: boolean; revision: number } & (
  | { subjectKind: "tool"; tool: ToolRecord }
  | { subjectKind: "agent"; agent: Agent }
  | { subjectKind: "rules"; rules: CatalogRules }
);

/** The pages whose history can be restored from, besides a tool's own (GET …/tools/{name}/audit). */
export type HistoryOf = "rules" | "agents";

const RULE_PARTS = Object.keys(RULE_SUBJECT_KINDS) as (keyof CatalogRules)[];

/** How far back a tool's history is searched for the entry being restored. */
const TOOL_HISTORY_LIMIT = 10_000;

/** The audit history of the catalog's rules or of its agents, newest first, each entry naming who made it. */
export async function historyOf(db: Db, catalogId: string, of: HistoryOf, limit?: number) {
  await getCatalog(db, catalogId);
  const filter = of === "rules" ? { subjectKind: Object.values(RULE_SUBJECT_KINDS), subject: RULE_PARTS } : { subjectKind: "agent" };
  return withActorNames(db, await listAudit(db, catalogId, { ...filter, limit }));
}

/**
 * Brings back one version of a tool, an agent or a part of the rules that an audit entry recorded,
 * through the same checks and write as an edit (one revision; its audit entries say "restored from
 * #<entry> (<version>)"). A deleted tool or agent is created again; what cannot be (the name is
 * now another's, a tool its source owns is gone, a rule names a tool that no longer exists) is a
 * clear error.
 */
export async function restoreVersion(db: Db, catalogId: string, request: RestoreRequest, actor: string): Promise<RestoreResult> {
  const { entry, state } = await versionToRestore(db, catalogId, request);
  const author: ChangeAuthor = { actor, action: `restored from #${entry.id} (${request.version})` };
  const revisionBefore = (await getCatalog(db, catalogId)).revision;
  const restored = await withRestoreContext(entry, () => restoreSubject(db, catalogId, entry, state, author, request.tool));
  const revision = (await getCatalog(db, catalogId)).revision;
  return { ...restored, changed: revision !== revisionBefore, revision };
}

/** The audit entry a restore names and the version of it to bring back; a clear error when there is none. */
async function versionToRestore(db: Db, catalogId: string, request: RestoreRequest): Promise<{ entry: AuditRow; state: unknown }> {
  const entry = await findAuditEntry(db, catalogId, request.entry);
  if (!entry) throw new ToolshedError("not_found", `Audit entry #${request.entry} is not in catalog "${catalogId}".`, "entry");
  const state = entry[request.version];
  if (state === null || state === undefined) {
    throw new ToolshedError(
      "bad_request",
      `Entry #${entry.id} (${entry.action}) recorded no version ${request.version} it: there is nothing to restore.`,
      "version",
    );
  }
  return { entry, state };
}

/**
 * What restoreVersion would change, without writing anything: the sentences of the confirmation a
 * person reads before restoring (names included: "renames send_mail back to sendMail"). A restore
 * that would be refused is refused here with the same error.
 */
export async function previewRestore(db: Db, catalogId: string, request: RestoreRequest): Promise<RestorePreview> {
  const { entry, state } = await versionToRestore(db, catalogId, request);
  return withRestoreContext(entry, async () => {
    if (entry.subjectKind === "tool") {
      const name = request.tool ?? entry.subject;
      await requireInToolHistory(db, catalogId, entry, name);
      const current = await findTool(db, catalogId, name);
      const snapshot = state as Record<string, unknown>;
      if (!current && snapshot.source !== "custom") throw goneSourceTool(name, snapshot);
      return toolRestorePreview(current, snapshot);
    }
    if (entry.subjectKind === "agent") {
      const current = (await listAgents(db, catalogId)).find((agent) => agent.name === entry.subject);
      return agentRestorePreview(current, parseWith(agentBody, state), entry.subject);
    }
    const part = RULE_PARTS.find((key) => key === entry.subject && RULE_SUBJECT_KINDS[key] === entry.subjectKind);
    if (!part) throw notRestorable(entry);
    return rulesRestorePreview(part, (await getRules(db, catalogId))[part], state);
  });
}

const notRestorable = (entry: AuditRow) =>
  new ToolshedError(
    "bad_request",
    `Entry #${entry.id} is about ${entry.subjectKind} "${entry.subject}": only tools, rules and agents can be restored.`,
    "entry",
  );

const goneSourceTool = (name: string, snapshot: Record<string, unknown>) =>
  new ToolshedError("conflict", `"${name}" was a ${String(snapshot.source)} tool and is gone: its source brings it back, not a restore.`, "tool");

async function requireInToolHistory(db: Db, catalogId: string, entry: AuditRow, name: string) {
  const history = await listToolHistory(db, catalogId, name, TOOL_HISTORY_LIMIT);
  if (!history.some((candidate) => candidate.id === entry.id)) {
    throw new ToolshedError("bad_request", `Entry #${entry.id} is not in the history of tool "${name}".`, "tool");
  }
}

type Restored = { subjectKind: "tool"; tool: ToolRecord } | { subjectKind: "agent"; agent: Agent } | { subjectKind: "rules"; rules: CatalogRules };

async function restoreSubject(db: Db, catalogId: string, entry: AuditRow, state: unknown, author: ChangeAuthor, tool?: string): Promise<Restored> {
  if (entry.subjectKind === "tool") return { subjectKind: "tool", tool: await restoreTool(db, catalogId, entry, state, author, tool ?? entry.subject) };
  if (entry.subjectKind === "agent")
    return { subjectKind: "agent", agent: await restoreAgent(db, catalogId, entry.subject, parseWith(agentBody, state), author) };
  const part = RULE_PARTS.find((key) => key === entry.subject && RULE_SUBJECT_KINDS[key] === entry.subjectKind);
  if (part) return { subjectKind: "rules", rules: await saveRules(db, catalogId, parseWith(rulesBody, { [part]: state }), author) };
  throw notRestorable(entry);
}

/** The tool fields a restore brings back: all a person edits on a custom tool, only these on one its source manages. */
const CUSTOM_TOOL_FIELDS = ["name", "summary", "description", "inputSchema", "tags", "enabled"] as const;
const SOURCE_TOOL_FIELDS = ["tags", "enabled"] as const;

function pick(state: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(fields.filter((field) => state[field] !== undefined).map((field) => [field, state[field]]));
}

async function restoreTool(db: Db, catalogId: string, entry: AuditRow, state: unknown, author: ChangeAuthor, name: string): Promise<ToolRecord> {
  await requireInToolHistory(db, catalogId, entry, name);
  const snapshot = state as Record<string, unknown>;
  const current = await findTool(db, catalogId, name);
  if (current) return updateTool(db, catalogId, name, pick(snapshot, current.source === "custom" ? CUSTOM_TOOL_FIELDS : SOURCE_TOOL_FIELDS), author);
  if (snapshot.source !== "custom") throw goneSourceTool(name, snapshot);
  return createCustomTool(db, catalogId, pick(snapshot, CUSTOM_TOOL_FIELDS), author);
}

/** Replaces the agent the entry is about (renaming it back if need be), or creates it again when it was deleted. */
async function restoreAgent(db: Db, catalogId: string, name: string, agent: Agent, author: ChangeAuthor): Promise<Agent> {
  const exists = (await listAgents(db, catalogId)).some((candidate) => candidate.name === name);
  return saveAgent(db, catalogId, agent, author, exists ? name : undefined);
}

/** Says which restore failed in the message of a refusal (a conflict, an invalid version), keeping its code and fields. */
async function withRestoreContext<T>(entry: AuditRow, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof ToolshedError)) throw error;
    throw new ToolshedError(error.code, `Cannot restore from #${entry.id}: ${error.message}`, error.field, error.problems);
  }
}
