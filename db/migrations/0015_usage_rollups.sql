CREATE TABLE `usage_rollups` (
	`catalog_id` text NOT NULL,
	`hour` integer NOT NULL,
	`tool` text NOT NULL,
	`agent` text NOT NULL,
	`model` text NOT NULL,
	`latency_bucket` integer NOT NULL,
	`calls` integer DEFAULT 0 NOT NULL,
	`refused` integer DEFAULT 0 NOT NULL,
	`timeouts` integer DEFAULT 0 NOT NULL,
	`upstream_errors` integer DEFAULT 0 NOT NULL,
	`cancelled` integer DEFAULT 0 NOT NULL,
	`offered` integer DEFAULT 0 NOT NULL,
	`called_when_offered` integer DEFAULT 0 NOT NULL,
	`found_by_search` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`catalog_id`, `hour`, `tool`, `agent`, `model`, `latency_bucket`),
	FOREIGN KEY (`catalog_id`) REFERENCES `catalogs`(`id`) ON UPDATE no action ON DELETE cascade
);
