ALTER TABLE `tools` ADD `approved_definition` text;--> statement-breakpoint
ALTER TABLE `tools` ADD `rejected_digest` text;--> statement-breakpoint
-- The MCP tools stored before definitions were pinned are approved as they are now (their server's
-- first listing was approved by whoever added it); only later changes wait for an editor. A server's
-- annotations are recorded from now on: for a tool that has some, their arrival is such a change, once.
UPDATE `tools` SET `approved_definition` = json_object(
  'summary', `summary`,
  'description', `description`,
  'inputSchema', json(`input_schema`),
  'meta', json(coalesce(`meta`, 'null')))
WHERE `source` = 'mcp';
