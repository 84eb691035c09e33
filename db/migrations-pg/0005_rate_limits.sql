-- The rate-limit counters the instances share (db/rate-limits.ts), in the layout rate-limiter-flexible's
-- RateLimiterPostgres reads and writes (its INSERT gives the columns in this order); the key is text, not
-- the library's varchar(255), since a caller's key has no length limit. Not in db/schema-pg.ts: only the
-- library uses it.
CREATE TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"points" integer DEFAULT 0 NOT NULL,
	"expire" bigint
);
--> statement-breakpoint
CREATE INDEX "rate_limits_expire_idx" ON "rate_limits" ("expire");
