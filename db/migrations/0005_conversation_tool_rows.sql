CREATE TABLE `conversation_tools` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`conversation_id` text NOT NULL,
	`name` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `conversation_tools_conversation_name` ON `conversation_tools` (`conversation_id`,`name`);--> statement-breakpoint
-- Each conversation's tool history moves from its JSON array to one row per tool, in order.
INSERT OR IGNORE INTO `conversation_tools` (`conversation_id`, `name`, `created_at`)
SELECT `conversations`.`id`, `entry`.`value`, `conversations`.`updated_at`
FROM `conversations`, json_each(`conversations`.`history`) AS `entry`
WHERE json_valid(`conversations`.`history`) AND `entry`.`type` = 'text'
ORDER BY `conversations`.`id`, `entry`.`key`;--> statement-breakpoint
ALTER TABLE `conversations` DROP COLUMN `history`;