import type { Conversation, StoredMessage } from "@/db/queries/conversations";
import type { DefinitionReview } from "@/db/queries/definition-reviews";
import type { FlaggedSelection } from "@/lib/tools/poisoning";
import type { ToolPage } from "@/db/queries/tool-pages";
import type { ToolRecord } from "@/db/queries/tools";
import type { AuditRow } from "@/db/schema";
import type { toolListAction } from "@/app/catalogs/[catalog]/simulator/actions";
import type { ActionData } from "@/lib/action-result";
import type { ToolListRequest } from "@/lib/pipeline/tool-list";

/** What a page says of a request that never got an answer. */
export const UNREACHABLE = "The server could not be reached: check the connection, then retry.";

/**
 * Sends a request to the HTTP API and reads its JSON answer. A failure becomes an Error saying in
 * plain words what went wrong: the API's own message, or that the server failed or could not be
 * reached (an abort stays an abort).
 */
async function requestJson<T>(url: string, init: RequestInit): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    if ((error as Error).name === "AbortError") throw error;
    throw new Error(UNREACHABLE);
  }
  const body = await response.json().catch(() => undefined);
  if (!response.ok || body === undefined) {
    const status = `${response.status}${response.statusText ? ` ${response.statusText}` : ""}`;
    throw new Error(body?.error?.message ?? `The server failed to answer (${status}).`);
  }
  return body as T;
}

/** Client-side reads of the HTTP API, shared by the pages' react-query hooks. */
export function getJson<T>(url: string, signal?: AbortSignal): Promise<T> {
  return requestJson<T>(url, { headers: { accept: "application/json" }, signal });
}

/** What the tools page filters by, as its URL keeps it ("" = any). */
export interface ToolPageFilters {
  q: string;
  source: string;
  state: string;
  tag: string;
  /** A day (YYYY-MM-DD): only the tools their source changed since then. */
  changedSince: string;
  /** A catalog revision: only the tools changed at it (the tools an import created or updated). */
  changedIn: string;
  /** A column to sort by, "-" first for descending ("" = registration order). */
  sort: string;
}

export const queryKeys = {
  /** Every tool of a catalog; also the prefix of the pages below, so invalidating it refreshes both. */
  tools: (catalogId: string) => ["tools", catalogId] as const,
  /** The server-side pages of the tools table, per filter. */
  toolPages: (catalogId: string, filters?: ToolPageFilters) =>
    filters ? (["tools", catalogId, "pages", filters] as const) : (["tools", catalogId, "pages"] as const),
  /** One tool; under the tools prefix, so what refreshes the tools refreshes it. */
  tool: (catalogId: string, name: string) => ["tools", catalogId, "one", name] as const,
  audit: (catalogId: string, name: string) => ["audit", catalogId, name] as const,
  /** The history of the catalog's rules or agents. */
  history: (catalogId: string, of: "rules" | "agents") => ["history", catalogId, of] as const,
  /** The held-back MCP tools; under the tools prefix, so what refreshes the tools refreshes them. */
  definitionReviews: (catalogId: string) => ["tools", catalogId, "definition-reviews"] as const,
  /** A simulated tool list, at a revision of the catalog: a newer revision reads it again. */
  toolList: (catalogId: string, revision: number | undefined, config: ToolListConfig) => ["tool-list", catalogId, revision ?? null, config] as const,
};

export type { DefinitionReview };

export function fetchDefinitionReviews(catalogId: string) {
  return getJson<{ reviews: (DefinitionReview & { flagged: FlaggedSelection | null })[] }>(
    `/api/catalogs/${encodeURIComponent(catalogId)}/definition-reviews`,
  ).then((body) => body.reviews);
}

export function fetchTool(catalogId: string, name: string) {
  return getJson<{ tool: ToolRecord }>(`/api/catalogs/${encodeURIComponent(catalogId)}/tools/${encodeURIComponent(name)}`).then((body) => body.tool);
}

export type { ToolPage };

const TOOL_PAGE_SIZE = 100;

/** One page of tools searched and filtered on the server; `cursor` is the previous page's nextCursor. */
export function fetchToolPage(catalogId: string, filters: ToolPageFilters, cursor?: string, signal?: AbortSignal) {
  const query = new URLSearchParams({ limit: String(TOOL_PAGE_SIZE) });
  for (const key of ["q", "source", "state", "tag", "changedSince", "changedIn", "sort"] as const) if (filters[key]) query.set(key, filters[key]);
  if (cursor) query.set("cursor", cursor);
  return getJson<ToolPage>(`/api/catalogs/${encodeURIComponent(catalogId)}/tools?${query}`, signal);
}

/** An audit entry as the API answers it: with who made it in words. */
export type AuditEntry = Omit<AuditRow, "createdAt"> & { createdAt: string; actorName: string };

export function fetchToolAudit(catalogId: string, name: string) {
  return getJson<{ entries: AuditEntry[] }>(`/api/catalogs/${encodeURIComponent(catalogId)}/tools/${encodeURIComponent(name)}/audit`).then(
    (body) => body.entries,
  );
}

export function fetchHistory(catalogId: string, of: "rules" | "agents") {
  return getJson<{ entries: AuditEntry[] }>(`/api/catalogs/${encodeURIComponent(catalogId)}/audit?of=${of}`).then((body) => body.entries);
}

export type ToolListConfig = ToolListRequest;

/** A simulated tool list, as the simulator's action answers it: what POST …/tool-list answers. */
export type ToolListResponse = ActionData<typeof toolListAction>;

export function postJson<T>(url: string, body: unknown): Promise<T> {
  return requestJson<T>(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
}

/** The tool's name in any of the three formats the tool-list API answers in. */
export function toolNameOf(tool: ToolListResponse["tools"][number]): string {
  return "function" in tool ? tool.function.name : tool.name;
}

export type { StoredMessage };

export const conversationKeys = {
  list: (catalogId: string) => ["conversations", catalogId] as const,
  one: (catalogId: string, id: string) => ["conversation", catalogId, id] as const,
};

export function fetchConversations(catalogId: string) {
  return getJson<{ conversations: Conversation[] }>(`/api/catalogs/${encodeURIComponent(catalogId)}/conversations`).then((body) => body.conversations);
}

export function fetchConversation(catalogId: string, id: string) {
  return getJson<{ conversation: Conversation; messages: StoredMessage[] }>(
    `/api/catalogs/${encodeURIComponent(catalogId)}/conversations/${encodeURIComponent(id)}`,
  );
}
