import "server-only";
import type { Db } from "@/db/client";
import { computeToolList, type ToolListRequest } from "@/lib/pipeline/tool-list";
import { catalogState } from "./catalog-states";

/**
 * The tool list a model and agent are handed now (every pipeline stage applied), and the fields
 * its answer names before the list's own: what POST …/tool-list and the simulator's action answer.
 */
export async function readToolList(db: Db, catalogId: string, request: ToolListRequest) {
  const state = await catalogState(db, catalogId);
  const list = computeToolList(state, request);
  const head = {
    catalog: catalogId,
    revision: state.revision,
    sourcesVersion: state.sourcesVersion,
    model: request.model,
    agent: request.agent,
    provider: list.provider ?? null,
    mode: list.mode,
    format: list.format,
  };
  return { head, list };
}
