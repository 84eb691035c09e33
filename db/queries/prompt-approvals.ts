import "server-only";
import { sql } from "drizzle-orm";
import { writeTransaction, type Db } from "../client";
import { appSettings } from "../tables";
import { recordChanges, type Tx } from "./audit";
import { requireCatalog } from "./guards";
import { deleteSetting, readSetting, writeSetting } from "./settings";

/**
 * The prompt definitions approved for a catalog's MCP servers (app_settings, which needed no
 * schema change): per server, each prompt's approved digest (lib/gateway/federation.ts
 * promptDigest) by its name on that server.
 */
export type PromptApprovals = Record<string, string>;

const APPROVE_PROMPT_ACTION = "approve-prompt";

const catalogPrefix = (catalogId: string) => `mcp-prompt-approvals:${catalogId}/`;
const approvalsKey = (catalogId: string, server: string) => `${catalogPrefix(catalogId)}${server}`;

/** The server's approvals; undefined while none were ever kept (its prompts were never listed). */
export function readPromptApprovals(db: Db, catalogId: string, server: string): Promise<PromptApprovals | undefined> {
  return readSetting<PromptApprovals>(db, approvalsKey(catalogId, server));
}

/** What a server's first listing approves: not audited, as a new server's first tool listing is not reviewed either. */
export function keepFirstPromptApprovals(db: Db, catalogId: string, server: string, approvals: PromptApprovals): Promise<void> {
  return writeSetting(db, approvalsKey(catalogId, server), approvals);
}

/** An editor approves a prompt's definition by its digest: one audited change, one revision (`prompt` entry `<server>/<prompt>`). */
export async function approvePromptDefinition(db: Db, catalogId: string, server: string, prompt: string, digest: string, actor: string): Promise<void> {
  await writeTransaction(db, async (tx) => {
    await requireCatalog(tx, catalogId);
    const key = approvalsKey(catalogId, server);
    const approvals = (await readSetting<PromptApprovals>(tx, key)) ?? {};
    await writeSetting(tx, key, { ...approvals, [prompt]: digest });
    await recordChanges(tx, catalogId, actor, [
      {
        subjectKind: "prompt",
        subject: `${server}/${prompt}`,
        action: APPROVE_PROMPT_ACTION,
        before: { digest: approvals[prompt] ?? null },
        after: { digest },
      },
    ]);
  });
}

/** Forgets a server's approvals: one added again under its name has its prompts approved by its own first listing. */
export function deletePromptApprovals(db: Db, catalogId: string, server: string): Promise<void> {
  return deleteSetting(db, approvalsKey(catalogId, server));
}

/** Forgets the approvals of every server of a deleted catalog (inside its deletion's transaction). */
export async function deleteCatalogPromptApprovals(tx: Tx, catalogId: string): Promise<void> {
  const prefix = catalogPrefix(catalogId);
  // substr, not LIKE: a catalog id's "_" would be a wildcard there.
  await tx.delete(appSettings).where(sql`substr(${appSettings.key}, 1, ${sql.raw(String(prefix.length))}) = ${prefix}`);
}
