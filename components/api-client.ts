import type { ToolRecord } from "@/db/queries/tools";
import type { AuditRow } from "@/db/schema";

/** Client-side reads of the HTTP API, shared by the pages' react-query hooks. */
async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url, { headers: { accept: "application/json" } });
  const body = await response.json();
  if (!response.ok) throw new Error(body?.error?.message ?? `Request failed: ${response.status}`);
  return body as T;
}

export const queryKeys = {
  tools: (catalogId: string) => ["tools", catalogId] as const,
  audit: (catalogId: string, name: string) => ["audit", catalogId, name] as const,
};

export function fetchTools(catalogId: string) {
  return getJson<{ tools: ToolRecord[] }>(`/api/catalogs/${encodeURIComponent(catalogId)}/tools`).then((body) => body.tools);
}

export type AuditEntry = Omit<AuditRow, "createdAt"> & { createdAt: string };

export function fetchToolAudit(catalogId: string, name: string) {
  return getJson<{ entries: AuditEntry[] }>(
    `/api/catalogs/${encodeURIComponent(catalogId)}/tools/${encodeURIComponent(name)}/audit`,
  ).then((body) => body.entries);
}
