CREATE TABLE `import_jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`catalog_id` text NOT NULL,
	`status` text NOT NULL,
	`progress` text NOT NULL,
	`result` text,
	`error` text,
	`created_at` integer NOT NULL,
	`finished_at` integer,
	FOREIGN KEY (`catalog_id`) REFERENCES `catalogs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `import_jobs_finished` ON `import_jobs` (`finished_at`);