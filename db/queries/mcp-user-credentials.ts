import "server-only";
import { and, desc, eq, isNotNull } from "drizzle-orm";
import { notFound } from "@/lib/errors";
import { decryptSecret, encryptSecret } from "@/lib/secrets";
import type { McpUserSecrets } from "@/lib/sources/mcp/user-credentials";
import type { Db } from "../client";
import { mcpServers, mcpUserCredentials } from "../tables";

/** A person's credential for one server, decrypted: for connecting, never for showing. */
export interface McpUserCredential {
  kind: "secret" | "oauth";
  secrets: McpUserSecrets;
  connectedAt: Date | null;
}

/** What pages may show of a person's credential: which server, what kind, since when. Never its value. */
export interface McpUserConnection {
  catalogId: string;
  server: string;
  kind: "secret" | "oauth";
  connectedAt: string | null;
}

async function serverIdOf(db: Db, catalogId: string, server: string): Promise<number> {
  const [row] = await db
    .select({ id: mcpServers.id })
    .from(mcpServers)
    .where(and(eq(mcpServers.catalogId, catalogId), eq(mcpServers.name, server)))
    .limit(1);
  if (!row) throw notFound(`MCP server "${server}"`);
  return row.id;
}

const ofServerAndUser = (serverId: number, userId: string) => and(eq(mcpUserCredentials.serverId, serverId), eq(mcpUserCredentials.userId, userId));

export async function getMcpUserCredential(db: Db, catalogId: string, server: string, userId: string): Promise<McpUserCredential | undefined> {
  const serverId = await serverIdOf(db, catalogId, server);
  const [row] = await db.select().from(mcpUserCredentials).where(ofServerAndUser(serverId, userId)).limit(1);
  if (!row) return undefined;
  return { kind: row.kind, secrets: JSON.parse(decryptSecret(row.secrets)) as McpUserSecrets, connectedAt: row.connectedAt };
}

/** Stores a person's credential for a server (replacing theirs), encrypted; `connectedAt` null while it cannot be used yet. */
export async function saveMcpUserCredential(db: Db, catalogId: string, server: string, userId: string, credential: McpUserCredential): Promise<void> {
  const serverId = await serverIdOf(db, catalogId, server);
  const values = {
    kind: credential.kind,
    secrets: encryptSecret(JSON.stringify(credential.secrets)),
    connectedAt: credential.connectedAt,
    updatedAt: new Date(),
  };
  await db
    .insert(mcpUserCredentials)
    .values({ serverId, userId, ...values })
    .onConflictDoUpdate({ target: [mcpUserCredentials.serverId, mcpUserCredentials.userId], set: values });
}

/** Forgets a person's credential for a server; whether there was one. */
export async function deleteMcpUserCredential(db: Db, catalogId: string, server: string, userId: string): Promise<boolean> {
  const serverId = await serverIdOf(db, catalogId, server);
  const deleted = await db.delete(mcpUserCredentials).where(ofServerAndUser(serverId, userId)).returning({ id: mcpUserCredentials.id });
  return deleted.length > 0;
}

/** Every credential the person holds, without their values. */
export async function listMcpUserConnections(db: Db, userId: string): Promise<McpUserConnection[]> {
  const rows = await db
    .select({ catalogId: mcpServers.catalogId, server: mcpServers.name, kind: mcpUserCredentials.kind, connectedAt: mcpUserCredentials.connectedAt })
    .from(mcpUserCredentials)
    .innerJoin(mcpServers, eq(mcpServers.id, mcpUserCredentials.serverId))
    .where(eq(mcpUserCredentials.userId, userId));
  return rows.map((row) => ({ ...row, connectedAt: row.connectedAt?.toISOString() ?? null }));
}

/** The person who connected to the server last, whose credential lists its tools (app/_services/mcp-user-credentials.ts). */
export async function lastConnectedUser(db: Db, catalogId: string, server: string): Promise<string | undefined> {
  const serverId = await serverIdOf(db, catalogId, server);
  const [row] = await db
    .select({ userId: mcpUserCredentials.userId })
    .from(mcpUserCredentials)
    .where(and(eq(mcpUserCredentials.serverId, serverId), isNotNull(mcpUserCredentials.connectedAt)))
    .orderBy(desc(mcpUserCredentials.connectedAt))
    .limit(1);
  return row?.userId;
}
