import "server-only";
import { and, asc, eq, isNull } from "drizzle-orm";
import type { TokenPrincipal, TokenScope } from "@/lib/auth/policy";
import { hashSecretToken, newApiToken, tokenDisplayPrefix } from "@/lib/auth/tokens";
import { ToolshedError, notFound } from "@/lib/errors";
import { writeTransaction, type Db } from "../client";
import { apiTokens } from "../tables";
import { getTeam } from "./teams";

export interface ApiToken {
  id: string;
  teamId: string;
  name: string;
  scope: TokenScope;
  prefix: string;
  createdBy: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

// Writing last use on every call would turn each read into a write; once a minute is enough to show.
const LAST_USE_RESOLUTION_MS = 60_000;

function toApiToken(row: typeof apiTokens.$inferSelect): ApiToken {
  return {
    id: row.id,
    teamId: row.teamId,
    name: row.name,
    scope: row.scope,
    prefix: row.prefix,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}

/** Creates a token; its secret is returned this once and only its hash is kept. */
export async function createApiToken(
  db: Db,
  teamId: string,
  input: { name: string; scope: TokenScope },
  createdBy: string,
): Promise<{ token: ApiToken; secret: string }> {
  await getTeam(db, teamId);
  const name = input.name.trim();
  if (!/^[\w .@:-]{1,64}$/.test(name)) throw new ToolshedError("bad_request", "A token name is 1-64 letters, digits, spaces or . @ : - _", "name");
  // One transaction: of two tokens of the same name created at once, the second gets the 409.
  return writeTransaction(db, async (tx) => {
    const [live] = await tx
      .select({ id: apiTokens.id })
      .from(apiTokens)
      .where(and(eq(apiTokens.teamId, teamId), eq(apiTokens.name, name)))
      .limit(1);
    if (live) throw new ToolshedError("conflict", `A token named "${name}" already exists in this team.`, "name");
    const secret = newApiToken();
    const [row] = await tx
      .insert(apiTokens)
      .values({ id: crypto.randomUUID(), teamId, name, scope: input.scope, tokenHash: hashSecretToken(secret), prefix: tokenDisplayPrefix(secret), createdBy })
      .returning();
    return { token: toApiToken(row), secret };
  });
}

export async function listApiTokens(db: Db, teamId: string): Promise<ApiToken[]> {
  await getTeam(db, teamId);
  return (await db.select().from(apiTokens).where(eq(apiTokens.teamId, teamId)).orderBy(asc(apiTokens.name))).map(toApiToken);
}

export async function revokeApiToken(db: Db, teamId: string, id: string): Promise<ApiToken> {
  const [row] = await db
    .update(apiTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiTokens.teamId, teamId), eq(apiTokens.id, id), isNull(apiTokens.revokedAt)))
    .returning();
  if (!row) throw notFound("Active token", "id");
  return toApiToken(row);
}

/** The principal a presented token stands for, or undefined for an unknown or revoked one. */
export async function principalOfToken(db: Db, secret: string, now = new Date()): Promise<TokenPrincipal | undefined> {
  const [row] = await db
    .select()
    .from(apiTokens)
    .where(eq(apiTokens.tokenHash, hashSecretToken(secret)))
    .limit(1);
  if (!row || row.revokedAt) return undefined;
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > LAST_USE_RESOLUTION_MS) {
    await db.update(apiTokens).set({ lastUsedAt: now }).where(eq(apiTokens.id, row.id));
  }
  return { kind: "token", id: row.id, name: row.name, teamId: row.teamId, scope: row.scope };
}
