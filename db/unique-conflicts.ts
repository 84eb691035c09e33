import "server-only";
import Database from "better-sqlite3";
import { ToolshedError } from "@/lib/errors";

const words = (column: string) => column.replace(/_id$/, "").replaceAll("_", " ");
const camelCase = (column: string) => column.replace(/_(\w)/g, (_, letter: string) => letter.toUpperCase());

/**
 * A write refused by a unique index, as the 409 it is when a query's own check missed the case:
 * "UNIQUE constraint failed: agents.catalog_id, agents.name" becomes "Another agent in this catalog
 * already has this name." on field `name`. Any other error is returned as it is.
 */
export function asConflict(thrown: unknown): unknown {
  // Drizzle wraps a driver's error in a DrizzleQueryError, with the driver's as its cause.
  const error = thrown instanceof Error && thrown.cause instanceof Database.SqliteError ? thrown.cause : thrown;
  if (!(error instanceof Database.SqliteError)) return thrown;
  if (error.code !== "SQLITE_CONSTRAINT_UNIQUE" && error.code !== "SQLITE_CONSTRAINT_PRIMARYKEY") return thrown;
  const columns = error.message
    .replace(/^UNIQUE constraint failed: /, "")
    .split(", ")
    .map((qualified) => qualified.split("."));
  const [table] = columns[0];
  const column = columns[columns.length - 1][1];
  const scope = columns
    .slice(0, -1)
    .map(([, name]) => words(name))
    .join(" and ");
  const thing = words(table).replace(/s$/, "");
  return new ToolshedError("conflict", `Another ${thing}${scope ? ` in this ${scope}` : ""} already has this ${words(column)}.`, camelCase(column));
}
