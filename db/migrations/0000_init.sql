CREATE TABLE `app_settings` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `audit_entries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`catalog_id` text NOT NULL,
	`revision` integer NOT NULL,
	`subject_kind` text NOT NULL,
	`subject` text NOT NULL,
	`action` text NOT NULL,
	`actor` text NOT NULL,
	`before` text,
	`after` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`catalog_id`) REFERENCES `catalogs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `audit_catalog_subject` ON `audit_entries` (`catalog_id`,`subject_kind`,`subject`);--> statement-breakpoint
CREATE TABLE `catalogs` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`revision` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `tools` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`catalog_id` text NOT NULL,
	`name` text NOT NULL,
	`source` text NOT NULL,
	`summary` text NOT NULL,
	`description` text NOT NULL,
	`input_schema` text NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`tags` text DEFAULT '[]' NOT NULL,
	`registered` integer DEFAULT true NOT NULL,
	`requires` text DEFAULT '{}' NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`catalog_id`) REFERENCES `catalogs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tools_catalog_name` ON `tools` (`catalog_id`,`name`);