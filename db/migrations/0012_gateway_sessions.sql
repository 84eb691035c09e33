CREATE TABLE `gateway_answers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`session_id` text NOT NULL,
	`message` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`session_id`) REFERENCES `gateway_sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `gateway_answers_session` ON `gateway_answers` (`session_id`,`id`);--> statement-breakpoint
CREATE TABLE `gateway_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`catalog_id` text NOT NULL,
	`owner` text NOT NULL,
	`turn` text NOT NULL,
	`conversation_id` text NOT NULL,
	`client` text NOT NULL,
	`last_used_at` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`catalog_id`) REFERENCES `catalogs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `gateway_sessions_owner` ON `gateway_sessions` (`owner`,`last_used_at`);--> statement-breakpoint
CREATE INDEX `gateway_sessions_last_used` ON `gateway_sessions` (`last_used_at`);