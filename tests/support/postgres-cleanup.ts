/** The PostgreSQL run's setup file: each test file's databases are dropped after it. */
import { afterAll } from "vitest";
import { dropFreshDatabases } from "./fresh-database";

afterAll(dropFreshDatabases);
