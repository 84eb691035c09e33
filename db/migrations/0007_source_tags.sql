ALTER TABLE `tools` ADD `source_tags` text;--> statement-breakpoint
-- A source's tool takes as its source's tags those its last sync (actor 'sync') wrote, when that
-- entry has them (since 'redefine' entries record whole definitions); otherwise its tags now.
-- Tags a person set since that sync stay theirs at the next one.
UPDATE `tools` SET `source_tags` = coalesce(
  (SELECT json_extract(`audit_entries`.`after`, '$.tags') FROM `audit_entries`
    WHERE `audit_entries`.`catalog_id` = `tools`.`catalog_id` AND `audit_entries`.`subject_kind` = 'tool' AND `audit_entries`.`subject` = `tools`.`name`
      AND `audit_entries`.`actor` = 'sync' AND `audit_entries`.`action` IN ('register', 'update', 'redefine')
    ORDER BY `audit_entries`.`id` DESC LIMIT 1),
  `tags`)
WHERE `source` IN ('mcp', 'plugin', 'skill');
