CREATE TABLE `usage_reports` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`catalog_id` text NOT NULL,
	`tool` text NOT NULL,
	`text` text NOT NULL,
	`caller` text NOT NULL,
	`strength` real NOT NULL,
	`dedupe_key` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`catalog_id`) REFERENCES `catalogs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `usage_reports_catalog_id` ON `usage_reports` (`catalog_id`,`id`);--> statement-breakpoint
CREATE INDEX `usage_reports_created` ON `usage_reports` (`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `usage_reports_dedupe` ON `usage_reports` (`catalog_id`,`dedupe_key`);