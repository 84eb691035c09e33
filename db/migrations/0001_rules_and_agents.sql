CREATE TABLE `agents` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`catalog_id` text NOT NULL,
	`name` text NOT NULL,
	`mode` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`permissions` text NOT NULL,
	`base_tools` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`catalog_id`) REFERENCES `catalogs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `agents_catalog_name` ON `agents` (`catalog_id`,`name`);--> statement-breakpoint
CREATE TABLE `catalog_rules` (
	`catalog_id` text PRIMARY KEY NOT NULL,
	`model_rules` text NOT NULL,
	`providers` text NOT NULL,
	`overrides` text NOT NULL,
	`search_service_configured` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`catalog_id`) REFERENCES `catalogs`(`id`) ON UPDATE no action ON DELETE cascade
);
