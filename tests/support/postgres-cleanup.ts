/** The PostgreSQL run's setup file: each test file's databases are dropped after it. */
import { afterAll } from "vitest";
import { dropFreshDatabases } from "./fresh-database";

// A file of many tests leaves as many databases (methods-and-paths: 47): on a busy machine
// dropping them one by one takes longer than a hook's default 10 s.
afterAll(dropFreshDatabases, 120_000);
