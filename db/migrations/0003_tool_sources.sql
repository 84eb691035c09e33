CREATE TABLE `mcp_servers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`catalog_id` text NOT NULL,
	`name` text NOT NULL,
	`config` text NOT NULL,
	`status` text DEFAULT 'never' NOT NULL,
	`last_sync_at` integer,
	`last_error` text,
	`tool_count` integer DEFAULT 0 NOT NULL,
	`server_info` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`catalog_id`) REFERENCES `catalogs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `mcp_servers_catalog_name` ON `mcp_servers` (`catalog_id`,`name`);--> statement-breakpoint
ALTER TABLE `tools` ADD `source_ref` text;--> statement-breakpoint
ALTER TABLE `tools` ADD `meta` text;--> statement-breakpoint
CREATE INDEX `tools_source_ref` ON `tools` (`catalog_id`,`source`,`source_ref`);