CREATE TABLE `mcp_health_changes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`server_id` integer NOT NULL,
	`state` text NOT NULL,
	`cause` text,
	`at` integer NOT NULL,
	FOREIGN KEY (`server_id`) REFERENCES `mcp_servers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `mcp_health_changes_server` ON `mcp_health_changes` (`server_id`,`id`);