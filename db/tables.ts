import "server-only";
import { usesPostgres } from "./dialect";
import * as sqliteTables from "./schema";
import * as postgresTables from "./schema-pg";

/**
 * The tables of the database this process runs on, for the query modules: PostgreSQL's
 * (db/schema-pg.ts) or SQLite's (db/schema.ts). Typed as SQLite's: the two have the same names and
 * row types (tests/db/schema-parity.test.ts), and the query builder of either database takes them.
 */
const tables = (usesPostgres() ? postgresTables : sqliteTables) as unknown as typeof sqliteTables;

export const {
  catalogs,
  tools,
  toolDeletions,
  auditEntries,
  appSettings,
  catalogRules,
  agents,
  conversations,
  conversationTools,
  conversationMessages,
  decisions,
  usageRollups,
  usageReports,
  evaluations,
  toolEmbeddings,
  mcpServers,
  mcpHealthChanges,
  mcpUserCredentials,
  users,
  sessions,
  accounts,
  verifications,
  teams,
  teamMembers,
  invitations,
  apiTokens,
  instanceAdmins,
  signInFailures,
  leases,
  importJobs,
  gatewaySessions,
  gatewayAnswers,
  jsonWebKeys,
  oauthClients,
  oauthResources,
  oauthClientResources,
  oauthRefreshTokens,
  oauthAccessTokens,
  oauthConsents,
  oauthClientAssertions,
} = tables;
