"use client";

import { queryOptions, useQuery } from "@tanstack/react-query";
import { createContext, useContext } from "react";
import { getJson } from "./api-client";

/** The catalog's revision now, as the API answers it (the revision badge polls it). */
export function latestRevisionQuery(catalogId: string) {
  return queryOptions({
    queryKey: ["catalog-revision", catalogId],
    queryFn: ({ signal }) =>
      getJson<{ catalog: { revision: number } }>(`/api/catalogs/${encodeURIComponent(catalogId)}`, signal).then((body) => body.catalog.revision),
  });
}

const RenderedRevision = createContext<number | undefined>(undefined);

/** The catalog's revision as its page was rendered: what the page's reads start at. */
export function CatalogRevisionProvider({ revision, children }: React.PropsWithChildren<{ revision: number }>) {
  return <RenderedRevision.Provider value={revision}>{children}</RenderedRevision.Provider>;
}

/**
 * The newest revision of the catalog the page knows of: the rendered one until the badge's poll
 * finds a newer one (a page rendered again after a save may know a newer one than the last poll).
 * Queries keyed by it read again when a change made here or elsewhere bumps it.
 */
export function useCatalogRevision(catalogId: string): number | undefined {
  const rendered = useContext(RenderedRevision);
  const latest = useQuery(latestRevisionQuery(catalogId)).data;
  if (rendered === undefined || latest === undefined) return rendered ?? latest;
  return Math.max(rendered, latest);
}
