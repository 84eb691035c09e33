import { z } from "zod";
import { defineDemoTool, type DemoTool } from "./types";

const schemaName = z.string().default("public").describe("Database schema name.");

export const POSTGRES_TOOLS: DemoTool[] = [
  defineDemoTool({
    name: "postgres_query",
    summary: "Run a read-only SQL SELECT against the Postgres database and return rows as JSON.",
    description:
      "Executes one SQL statement in a read-only transaction and returns column names and rows. Statements that write are rejected; use postgres_execute for those. Results are capped at maxRows and the statement times out after 30 seconds, so aggregate or add LIMIT on large tables. Use $1, $2 placeholders with params instead of pasting values into the SQL.",
    parameters: {
      sql: z.string().min(1).describe("A single SELECT (or WITH ... SELECT) statement."),
      params: z
        .array(z.union([z.string(), z.number(), z.boolean(), z.null()]))
        .optional()
        .describe("Values for the $1, $2, ... placeholders, in order."),
      maxRows: z.int().min(1).max(10000).default(500).describe("Maximum number of rows to return."),
    },
    tags: ["database", "sql", "postgres", "read-only"],
  }),
  defineDemoTool({
    name: "postgres_execute",
    summary: "Execute a data-changing SQL statement (INSERT, UPDATE, DELETE, DDL) on Postgres and return the affected row count.",
    description:
      "Runs one statement that modifies data or schema inside a transaction. With dryRun the transaction is rolled back after reporting how many rows would change, which is the safe first step. UPDATE and DELETE without a WHERE clause are refused. Confirm destructive changes with the user before running them for real.",
    parameters: {
      sql: z.string().min(1).describe("A single INSERT, UPDATE, DELETE, CREATE, ALTER or DROP statement."),
      params: z
        .array(z.union([z.string(), z.number(), z.boolean(), z.null()]))
        .optional()
        .describe("Values for the $1, $2, ... placeholders, in order."),
      dryRun: z.boolean().default(true).describe("Roll back after reporting the affected row count."),
    },
    tags: ["database", "sql", "postgres", "write"],
  }),
  defineDemoTool({
    name: "postgres_list_tables",
    summary: "List the tables and views of a Postgres schema with estimated row counts and comments.",
    description:
      "Returns every table and view in a schema with its kind, estimated row count, size on disk and comment. Call it first when you do not know the database's structure.",
    parameters: {
      schema: schemaName,
      includeViews: z.boolean().default(true).describe("Include views and materialized views."),
    },
    tags: ["database", "postgres", "schema", "read-only"],
  }),
  defineDemoTool({
    name: "postgres_describe_table",
    summary: "Show a Postgres table's columns, types, nullability, defaults, indexes and foreign keys.",
    description:
      "Returns the definition of one table: columns with types, nullability, defaults and comments, the primary key, indexes, foreign keys in both directions and check constraints. Use it before writing queries or migrations against the table.",
    parameters: {
      schema: schemaName,
      table: z.string().describe("Table name."),
    },
    tags: ["database", "postgres", "schema", "read-only"],
  }),
  defineDemoTool({
    name: "postgres_explain_query",
    summary: "Show the Postgres query plan for a SQL statement (EXPLAIN, optionally ANALYZE) to diagnose slow queries.",
    description:
      "Returns the execution plan chosen by the planner, as text. With analyze the statement is actually run (inside a rolled-back transaction) and real timings and row counts are included, which is slower but shows where the time goes. Look for sequential scans on large tables and estimates far from actual rows.",
    parameters: {
      sql: z.string().min(1).describe("The statement to explain."),
      analyze: z.boolean().default(false).describe("Run the statement and include actual timings."),
      buffers: z.boolean().default(false).describe("Include buffer usage; only with analyze."),
    },
    tags: ["database", "sql", "postgres", "performance", "read-only"],
  }),
];
