CREATE TABLE `mcp_user_credentials` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`server_id` integer NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`secrets` text NOT NULL,
	`connected_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`server_id`) REFERENCES `mcp_servers`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `mcp_user_credentials_server_user` ON `mcp_user_credentials` (`server_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `mcp_user_credentials_user` ON `mcp_user_credentials` (`user_id`);