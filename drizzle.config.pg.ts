import { defineConfig } from "drizzle-kit";

/** `npm run db:generate:pg`: the PostgreSQL migrations, from db/schema-pg.ts (db/schema.ts for SQLite). */
export default defineConfig({
  dialect: "postgresql",
  schema: "./db/schema-pg.ts",
  out: "./db/migrations-pg",
  dbCredentials: { url: process.env.TOOLSHED_DATABASE_URL ?? "" },
});
