export const CATALOG_ID_MAX = 48;
export const CATALOG_ID_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,46}[a-z0-9])?$/;

/** A URL-safe catalog id from a display name: "Payments Team!" → "payments-team". */
export function slugify(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, CATALOG_ID_MAX)
    .replace(/-+$/g, "");
}
