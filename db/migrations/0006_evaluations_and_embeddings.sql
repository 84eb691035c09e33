CREATE TABLE `evaluations` (
	`id` text PRIMARY KEY NOT NULL,
	`catalog_id` text NOT NULL,
	`revision` integer NOT NULL,
	`set_name` text NOT NULL,
	`selector` text NOT NULL,
	`k` integer NOT NULL,
	`status` text NOT NULL,
	`cases` text NOT NULL,
	`progress_done` integer DEFAULT 0 NOT NULL,
	`progress_total` integer NOT NULL,
	`metrics` text,
	`misses` text,
	`error` text,
	`created_by` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`finished_at` integer,
	FOREIGN KEY (`catalog_id`) REFERENCES `catalogs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `evaluations_catalog_created` ON `evaluations` (`catalog_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `tool_embeddings` (
	`model` text NOT NULL,
	`definition_hash` text NOT NULL,
	`dimensions` integer NOT NULL,
	`vector` blob NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	PRIMARY KEY(`model`, `definition_hash`)
);
