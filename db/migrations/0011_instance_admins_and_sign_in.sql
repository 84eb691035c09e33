CREATE TABLE `instance_admins` (
	`user_id` text PRIMARY KEY NOT NULL,
	`granted_by` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `sign_in_failures` (
	`key` text PRIMARY KEY NOT NULL,
	`failures` integer NOT NULL,
	`locked_until` integer,
	`last_failure_at` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `conversations` ADD `owner` text;--> statement-breakpoint
ALTER TABLE `invitations` ADD `accepted_by` text REFERENCES users(id) ON DELETE set null;--> statement-breakpoint
-- Upgrading: the earliest admin of the default team (the setup admin) becomes the instance admin.
INSERT INTO `instance_admins` (`user_id`, `granted_by`) SELECT `user_id`, 'migration' FROM `team_members` WHERE `team_id` = 'default' AND `role` = 'admin' ORDER BY `created_at` LIMIT 1;