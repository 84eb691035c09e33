CREATE TABLE `conversation_messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`conversation_id` text NOT NULL,
	`role` text NOT NULL,
	`content` text NOT NULL,
	`details` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `messages_conversation` ON `conversation_messages` (`conversation_id`,`id`);--> statement-breakpoint
CREATE TABLE `conversations` (
	`id` text PRIMARY KEY NOT NULL,
	`catalog_id` text NOT NULL,
	`title` text DEFAULT '' NOT NULL,
	`model` text NOT NULL,
	`agent` text NOT NULL,
	`mode` text,
	`flags` text DEFAULT '[]' NOT NULL,
	`history` text DEFAULT '[]' NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`catalog_id`) REFERENCES `catalogs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `decisions` (
	`id` text PRIMARY KEY NOT NULL,
	`catalog_id` text NOT NULL,
	`conversation_id` text,
	`revision` integer NOT NULL,
	`kind` text NOT NULL,
	`path` text NOT NULL,
	`model` text NOT NULL,
	`agent` text NOT NULL,
	`mode` text,
	`flags` text DEFAULT '[]' NOT NULL,
	`input` text NOT NULL,
	`selector` text,
	`fallback` text,
	`raw` text,
	`result` text NOT NULL,
	`rejected` text NOT NULL,
	`latency_ms` real NOT NULL,
	`tokens` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`catalog_id`) REFERENCES `catalogs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `decisions_catalog_created` ON `decisions` (`catalog_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `decisions_conversation` ON `decisions` (`conversation_id`);