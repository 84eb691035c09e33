/** The migrated database that every test database of the PostgreSQL run is a copy of. */
export const TEMPLATE_DATABASE = "toolshed_template";

/** The same server's URL for another database. */
export function withDatabase(url: string, database: string): string {
  const target = new URL(url);
  target.pathname = `/${database}`;
  return target.toString();
}
