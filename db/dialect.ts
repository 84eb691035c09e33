import "server-only";

/**
 * Which database this process runs on: PostgreSQL when TOOLSHED_DATABASE_URL is set
 * (postgres://…), otherwise the embedded SQLite file (TOOLSHED_DB). Decided once, at start.
 */
export function databaseUrl(): string | undefined {
  return process.env.TOOLSHED_DATABASE_URL || undefined;
}

export function usesPostgres(): boolean {
  return databaseUrl() !== undefined;
}
