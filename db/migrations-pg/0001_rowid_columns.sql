-- SQLite's implicit rowid, which the decision and evaluation lists order and page by: a column that
-- db/schema-pg.ts leaves out, so that rows read through Drizzle are the same on both databases.
ALTER TABLE "decisions" ADD COLUMN "rowid" bigint GENERATED ALWAYS AS IDENTITY;--> statement-breakpoint
ALTER TABLE "evaluations" ADD COLUMN "rowid" bigint GENERATED ALWAYS AS IDENTITY;
