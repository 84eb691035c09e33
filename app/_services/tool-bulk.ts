import "server-only";
import type { z } from "zod";
import type { Db } from "@/db/client";
import { bulkChangeTools, type BulkResult } from "@/db/queries/tool-bulk";
import { undoBulkChange } from "@/db/queries/tool-bulk-undo";
import { matchingToolNames } from "@/db/queries/tool-pages";
import type { toolBulkBody } from "@/lib/api-schemas";
import type { Principal } from "@/lib/auth/policy";
import { ToolshedError } from "@/lib/errors";
import { requireCatalogAccess } from "./access";

type BulkRequest = z.infer<typeof toolBulkBody>;

/**
 * One bulk change of a catalog's tools (POST …/tools-bulk): the tools named, or every tool matching
 * the table's filters; move and copy need the editor role in the target catalog too (checked here,
 * the caller's role in this one by the route).
 */
export async function runBulkChange(db: Db, catalogId: string, body: BulkRequest, principal: Principal, actor: string): Promise<BulkResult> {
  if (body.action === "undo") return undoBulkChange(db, catalogId, body.revision!, actor);
  if (body.target) await requireCatalogAccess(principal, body.target, "write");
  const names = body.names ?? (await matchingToolNames(db, catalogId, body.matching ?? {}));
  if (names.length === 0) throw new ToolshedError("bad_request", "No tool matches those filters: nothing to change.", "matching");
  return bulkChangeTools(db, catalogId, { action: body.action, names, addTags: body.addTags, removeTags: body.removeTags, target: body.target }, actor);
}
