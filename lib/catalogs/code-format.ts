/** How a catalog file is written (catalog-code.ts); apart from it, since request schemas that pages load name them. */
export const CATALOG_CODE_FORMATS = ["yaml", "json"] as const;
export type CatalogCodeFormat = (typeof CATALOG_CODE_FORMATS)[number];
