import path from "node:path";
import Database from "better-sqlite3";
import { type Column, getTableColumns, getTableName, is, type Table } from "drizzle-orm";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { getTableConfig as getPgTableConfig, PgTable } from "drizzle-orm/pg-core";
import { getTableConfig as getSqliteTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import { describe, expect, expectTypeOf, it } from "vitest";
import * as sqliteSchema from "@/db/schema";
import * as pgSchema from "@/db/schema-pg";

// The query modules use the PostgreSQL tables typed as the SQLite ones: their row types must be one.
type Rows<Schema, Kind extends "$inferSelect" | "$inferInsert"> = {
  [Name in keyof Schema as Schema[Name] extends Table ? Name : never]: Schema[Name][Kind & keyof Schema[Name]];
};

/** What both dialects must agree on about a table, whatever their column types. */
interface TableShape {
  name: string;
  columns: Record<string, { name: string; notNull: boolean; primary: boolean; unique: boolean }>;
  indexes: { name: string; unique: boolean; columns: string[] }[];
  foreignKeys: { columns: string[]; table: string; foreignColumns: string[]; onDelete: string | undefined }[];
  primaryKey: string[][];
}

type TableConfig = ReturnType<typeof getSqliteTableConfig> | ReturnType<typeof getPgTableConfig>;

const names = (columns: readonly unknown[]) => columns.map((column) => (column as Column).name);

function shape(table: Table, config: TableConfig): TableShape {
  return {
    name: config.name,
    columns: Object.fromEntries(
      Object.entries(getTableColumns(table)).map(([key, column]) => [
        key,
        { name: column.name, notNull: column.notNull, primary: column.primary, unique: column.isUnique },
      ]),
    ),
    indexes: config.indexes.map(({ config: index }) => ({ name: index.name ?? "", unique: index.unique, columns: names(index.columns) })),
    foreignKeys: config.foreignKeys.map((key) => {
      const reference = key.reference();
      return {
        columns: names(reference.columns),
        table: getTableName(reference.foreignTable),
        foreignColumns: names(reference.foreignColumns),
        onDelete: key.onDelete,
      };
    }),
    primaryKey: config.primaryKeys.map((key) => names(key.columns)),
  };
}

/** Every table a schema module exports, by export name. */
function tables(schema: Record<string, unknown>): Record<string, TableShape> {
  const shapes: Record<string, TableShape> = {};
  for (const [exportName, value] of Object.entries(schema)) {
    if (is(value, SQLiteTable)) shapes[exportName] = shape(value, getSqliteTableConfig(value));
    else if (is(value, PgTable)) shapes[exportName] = shape(value, getPgTableConfig(value));
  }
  return shapes;
}

describe("db/schema-pg.ts is db/schema.ts for PostgreSQL", () => {
  it("has the same row types per table (checked by tsc)", () => {
    expectTypeOf<Rows<typeof pgSchema, "$inferSelect">>().toEqualTypeOf<Rows<typeof sqliteSchema, "$inferSelect">>();
    expectTypeOf<Rows<typeof pgSchema, "$inferInsert">>().toEqualTypeOf<Rows<typeof sqliteSchema, "$inferInsert">>();
  });

  it("exports the same tables, with the same table and column names, keys, indexes and foreign keys", () => {
    const sqlite = tables(sqliteSchema);
    expect(Object.keys(sqlite)).toContain("leases");
    expect(tables(pgSchema)).toEqual(sqlite);
  });
});

describe("the SQLite migrations", () => {
  it("build every table and column of db/schema.ts", () => {
    const db = drizzle(new Database(":memory:"));
    migrate(db, { migrationsFolder: path.join(process.cwd(), "db", "migrations") });
    for (const table of Object.values(tables(sqliteSchema))) {
      const built = db.$client.prepare(`SELECT name FROM pragma_table_info(?)`).all(table.name) as { name: string }[];
      expect(built.map((column) => column.name).sort(), table.name).toEqual(
        Object.values(table.columns)
          .map((column) => column.name)
          .sort(),
      );
    }
    db.$client.close();
  });
});
