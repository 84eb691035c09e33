import "server-only";
import Database from "better-sqlite3";
import { ToolshedError } from "@/lib/errors";

const words = (column: string) => column.replace(/_id$/, "").replaceAll("_", " ");
const camelCase = (column: string) => column.replace(/_(\w)/g, (_, letter: string) => letter.toUpperCase());

/** The table and columns of a unique index a driver's error names, or undefined for any other error. */
function uniqueViolation(error: unknown): { table: string; columns: string[] } | undefined {
  if (error instanceof Database.SqliteError) {
    if (error.code !== "SQLITE_CONSTRAINT_UNIQUE" && error.code !== "SQLITE_CONSTRAINT_PRIMARYKEY") return undefined;
    // "UNIQUE constraint failed: agents.catalog_id, agents.name"
    const qualified = error.message.replace(/^UNIQUE constraint failed: /, "").split(", ");
    return { table: qualified[0].split(".")[0], columns: qualified.map((column) => column.split(".")[1]) };
  }
  // node-postgres: code 23505, the table, and "Key (catalog_id, name)=(team, plan) already exists."
  const { code, table, detail } = (error ?? {}) as { code?: string; table?: string; detail?: string };
  const key = detail?.match(/^Key \(([^)]*)\)=/);
  if (code !== "23505" || !table || !key) return undefined;
  return { table, columns: key[1].split(", ").map((column) => column.replaceAll('"', "")) };
}

/**
 * A write refused by a unique index, as the 409 it is when a query's own check missed the case:
 * "UNIQUE constraint failed: agents.catalog_id, agents.name" (or PostgreSQL's unique violation of
 * the same index) becomes "Another agent in this catalog already has this name." on field `name`.
 * Any other error is returned as it is.
 */
export function asConflict(thrown: unknown): unknown {
  // Drizzle wraps a driver's error in a DrizzleQueryError, with the driver's as its cause.
  const violation = uniqueViolation(thrown) ?? (thrown instanceof Error ? uniqueViolation(thrown.cause) : undefined);
  if (!violation) return thrown;
  const { table, columns } = violation;
  const column = columns[columns.length - 1];
  const scope = columns
    .slice(0, -1)
    .map((name) => words(name))
    .join(" and ");
  const thing = words(table).replace(/s$/, "");
  return new ToolshedError("conflict", `Another ${thing}${scope ? ` in this ${scope}` : ""} already has this ${words(column)}.`, camelCase(column));
}

/** Whether a write was refused because a row it refers to is gone (SQLite's or PostgreSQL's foreign key violation). */
export function violatesForeignKey(thrown: unknown): boolean {
  const violates = (error: unknown) =>
    error instanceof Database.SqliteError ? error.code === "SQLITE_CONSTRAINT_FOREIGNKEY" : (error as { code?: string } | undefined)?.code === "23503";
  return violates(thrown) || (thrown instanceof Error && violates(thrown.cause));
}
