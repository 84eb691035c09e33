CREATE TABLE `tool_deletions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`catalog_id` text NOT NULL,
	`tool_id` integer NOT NULL,
	`row_version` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `tool_deletions_catalog` ON `tool_deletions` (`catalog_id`,`row_version`);--> statement-breakpoint
CREATE INDEX `tool_deletions_created` ON `tool_deletions` (`created_at`);--> statement-breakpoint
ALTER TABLE `tools` ADD `row_version` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `tools_row_version` ON `tools` (`catalog_id`,`row_version`);--> statement-breakpoint
-- One counter for every tool write: each insert, update and deletion takes the next value, so an
-- instance asks only for the rows and deletions past the version of the catalog it already has.
CREATE TABLE `tool_version_counter` (`id` integer PRIMARY KEY CHECK (`id` = 1), `value` integer NOT NULL);--> statement-breakpoint
INSERT INTO `tool_version_counter` (`id`, `value`) VALUES (1, 0);--> statement-breakpoint
CREATE TRIGGER `tools_version_on_insert` AFTER INSERT ON `tools` BEGIN
  UPDATE `tool_version_counter` SET `value` = `value` + 1 WHERE `id` = 1;
  UPDATE `tools` SET `row_version` = (SELECT `value` FROM `tool_version_counter` WHERE `id` = 1) WHERE `id` = NEW.`id`;
END;--> statement-breakpoint
CREATE TRIGGER `tools_version_on_update` AFTER UPDATE ON `tools` WHEN NEW.`row_version` = OLD.`row_version` BEGIN
  UPDATE `tool_version_counter` SET `value` = `value` + 1 WHERE `id` = 1;
  UPDATE `tools` SET `row_version` = (SELECT `value` FROM `tool_version_counter` WHERE `id` = 1) WHERE `id` = NEW.`id`;
END;--> statement-breakpoint
CREATE TRIGGER `tools_version_on_delete` AFTER DELETE ON `tools` BEGIN
  UPDATE `tool_version_counter` SET `value` = `value` + 1 WHERE `id` = 1;
  INSERT INTO `tool_deletions` (`catalog_id`, `tool_id`, `row_version`) VALUES (OLD.`catalog_id`, OLD.`id`, (SELECT `value` FROM `tool_version_counter` WHERE `id` = 1));
END;
