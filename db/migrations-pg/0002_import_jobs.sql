CREATE TABLE "import_jobs" (
	"id" text PRIMARY KEY NOT NULL,
	"catalog_id" text NOT NULL,
	"status" text NOT NULL,
	"progress" text NOT NULL,
	"result" text,
	"error" text,
	"created_at" timestamp (3) with time zone NOT NULL,
	"finished_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "import_jobs" ADD CONSTRAINT "import_jobs_catalog_id_catalogs_id_fk" FOREIGN KEY ("catalog_id") REFERENCES "public"."catalogs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "import_jobs_finished" ON "import_jobs" USING btree ("finished_at");