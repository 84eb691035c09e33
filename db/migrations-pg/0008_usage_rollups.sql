CREATE TABLE "usage_rollups" (
	"catalog_id" text NOT NULL,
	"hour" timestamp (3) with time zone NOT NULL,
	"tool" text NOT NULL,
	"agent" text NOT NULL,
	"model" text NOT NULL,
	"latency_bucket" integer NOT NULL,
	"calls" integer DEFAULT 0 NOT NULL,
	"refused" integer DEFAULT 0 NOT NULL,
	"timeouts" integer DEFAULT 0 NOT NULL,
	"upstream_errors" integer DEFAULT 0 NOT NULL,
	"cancelled" integer DEFAULT 0 NOT NULL,
	"offered" integer DEFAULT 0 NOT NULL,
	"called_when_offered" integer DEFAULT 0 NOT NULL,
	"found_by_search" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_rollups_catalog_id_hour_tool_agent_model_latency_bucket_pk" PRIMARY KEY("catalog_id","hour","tool","agent","model","latency_bucket")
);
--> statement-breakpoint
ALTER TABLE "usage_rollups" ADD CONSTRAINT "usage_rollups_catalog_id_catalogs_id_fk" FOREIGN KEY ("catalog_id") REFERENCES "public"."catalogs"("id") ON DELETE cascade ON UPDATE no action;