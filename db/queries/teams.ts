import "server-only";
import { and, asc, eq, gt, isNull, sql } from "drizzle-orm";
import { hashSecretToken, newLinkSecret } from "@/lib/auth/tokens";
import type { TeamRole } from "@/lib/auth/policy";
import { CATALOG_ID_PATTERN, slugify } from "@/lib/catalogs/slug";
import { ToolshedError, notFound } from "@/lib/errors";
import { writeTransaction, type Db } from "../client";
import { catalogs, invitations, teamMembers, teams, users } from "../schema";

export const DEFAULT_TEAM = "default";
const INVITATION_DAYS = 7;

export interface Team {
  id: string;
  name: string;
}

export interface TeamMember {
  userId: string;
  email: string;
  name: string;
  role: TeamRole;
  since: string;
}

export interface Invitation {
  id: string;
  email: string;
  role: TeamRole;
  invitedBy: string;
  expiresAt: string;
  acceptedAt: string | null;
}

export function listTeams(db: Db, ids?: string[]): Team[] {
  const rows = db.select({ id: teams.id, name: teams.name }).from(teams).orderBy(asc(teams.name)).all();
  return ids ? rows.filter((team) => ids.includes(team.id)) : rows;
}

export function getTeam(db: Db, id: string): Team {
  const team = db.select({ id: teams.id, name: teams.name }).from(teams).where(eq(teams.id, id)).get();
  if (!team) throw notFound(`Team "${id}"`, "team");
  return team;
}

/** Creates a team with its creator as admin. */
export function createTeam(db: Db, input: { name: string; id?: string }, creatorId: string): Team {
  const name = input.name.trim();
  if (!name || name.length > 80) throw new ToolshedError("bad_request", "A team name is 1-80 characters.", "name");
  const id = input.id ?? slugify(name);
  if (!CATALOG_ID_PATTERN.test(id))
    throw new ToolshedError("bad_request", "A team id is lowercase letters, digits and '-', at most 48 characters.", input.id ? "id" : "name");
  return writeTransaction(db, (tx) => {
    if (tx.select({ id: teams.id }).from(teams).where(eq(teams.id, id)).get()) {
      throw new ToolshedError("conflict", `A team with id "${id}" already exists.`, input.id ? "id" : "name");
    }
    tx.insert(teams).values({ id, name }).run();
    tx.insert(teamMembers).values({ teamId: id, userId: creatorId, role: "admin" }).run();
    return { id, name };
  });
}

/** Every team role of a user, for building their principal. */
export function rolesOfUser(db: Db, userId: string): Record<string, TeamRole> {
  const rows = db.select({ teamId: teamMembers.teamId, role: teamMembers.role }).from(teamMembers).where(eq(teamMembers.userId, userId)).all();
  return Object.fromEntries(rows.map((row) => [row.teamId, row.role]));
}

export function listMembers(db: Db, teamId: string): TeamMember[] {
  getTeam(db, teamId);
  return db
    .select({ userId: users.id, email: users.email, name: users.name, role: teamMembers.role, since: teamMembers.createdAt })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .where(eq(teamMembers.teamId, teamId))
    .orderBy(asc(users.email))
    .all()
    .map((row) => ({ ...row, since: row.since.toISOString() }));
}

function adminCount(db: Pick<Db, "select">, teamId: string): number {
  const [{ count }] = db
    .select({ count: sql<number>`count(*)` })
    .from(teamMembers)
    .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.role, "admin")))
    .all();
  return count;
}

/** Adds a member or changes their role; a team never loses its last admin. */
export function setMemberRole(db: Db, teamId: string, userId: string, role: TeamRole): void {
  writeTransaction(db, (tx) => {
    getTeam(tx as unknown as Db, teamId);
    const current = tx
      .select({ role: teamMembers.role })
      .from(teamMembers)
      .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)))
      .get();
    if (current?.role === "admin" && role !== "admin" && adminCount(tx, teamId) <= 1) {
      throw new ToolshedError("conflict", "A team needs at least one admin: make someone else admin first.", "role");
    }
    if (current)
      tx.update(teamMembers)
        .set({ role })
        .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)))
        .run();
    else tx.insert(teamMembers).values({ teamId, userId, role }).run();
  });
}

export function removeMember(db: Db, teamId: string, userId: string): void {
  writeTransaction(db, (tx) => {
    const current = tx
      .select({ role: teamMembers.role })
      .from(teamMembers)
      .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)))
      .get();
    if (!current) throw notFound("Team member", "userId");
    if (current.role === "admin" && adminCount(tx, teamId) <= 1) {
      throw new ToolshedError("conflict", "A team needs at least one admin: make someone else admin first.", "userId");
    }
    tx.delete(teamMembers)
      .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)))
      .run();
  });
}

export function teamOfCatalog(db: Db, catalogId: string): string | undefined {
  return db.select({ teamId: catalogs.teamId }).from(catalogs).where(eq(catalogs.id, catalogId)).get()?.teamId;
}

const normaliseEmail = (email: string) => email.trim().toLowerCase();

/** Creates an invitation and returns the secret of its link (stored only as a hash). */
export function createInvitation(
  db: Db,
  teamId: string,
  input: { email: string; role: TeamRole },
  invitedBy: string,
): { invitation: Invitation; secret: string } {
  getTeam(db, teamId);
  const secret = newLinkSecret();
  const row = db
    .insert(invitations)
    .values({
      id: crypto.randomUUID(),
      teamId,
      email: normaliseEmail(input.email),
      role: input.role,
      tokenHash: hashSecretToken(secret),
      invitedBy,
      expiresAt: new Date(Date.now() + INVITATION_DAYS * 24 * 3600 * 1000),
    })
    .returning()
    .get();
  return { invitation: toInvitation(row), secret };
}

function toInvitation(row: typeof invitations.$inferSelect): Invitation {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    invitedBy: row.invitedBy,
    expiresAt: row.expiresAt.toISOString(),
    acceptedAt: row.acceptedAt?.toISOString() ?? null,
  };
}

export function listInvitations(db: Db, teamId: string): Invitation[] {
  getTeam(db, teamId);
  return db.select().from(invitations).where(eq(invitations.teamId, teamId)).orderBy(asc(invitations.createdAt)).all().map(toInvitation);
}

export function revokeInvitation(db: Db, teamId: string, id: string): void {
  const result = db
    .delete(invitations)
    .where(and(eq(invitations.teamId, teamId), eq(invitations.id, id), isNull(invitations.acceptedAt)))
    .run();
  if (result.changes === 0) throw notFound("Pending invitation", "id");
}

export interface OpenInvitation extends Invitation {
  teamId: string;
  teamName: string;
}

/** The pending, unexpired invitation a link's secret stands for, or undefined. */
export function findOpenInvitation(db: Db, secret: string): OpenInvitation | undefined {
  const row = db
    .select({ invitation: invitations, teamName: teams.name })
    .from(invitations)
    .innerJoin(teams, eq(teams.id, invitations.teamId))
    .where(and(eq(invitations.tokenHash, hashSecretToken(secret)), isNull(invitations.acceptedAt), gt(invitations.expiresAt, new Date())))
    .get();
  return row && { ...toInvitation(row.invitation), teamId: row.invitation.teamId, teamName: row.teamName };
}

/** True when someone may create an account with this e-mail: a pending invitation names it. */
export function hasOpenInvitationFor(db: Db, email: string): boolean {
  return !!db
    .select({ id: invitations.id })
    .from(invitations)
    .where(and(eq(invitations.email, normaliseEmail(email)), isNull(invitations.acceptedAt), gt(invitations.expiresAt, new Date())))
    .get();
}

/** Uses an invitation once: the user joins the team with its role (a higher role they have is kept). */
export function acceptInvitation(db: Db, secret: string, userId: string): OpenInvitation {
  const open = findOpenInvitation(db, secret);
  if (!open) throw new ToolshedError("not_found", "This invitation link is not valid: it was used, revoked or has expired.", "token");
  writeTransaction(db, (tx) => {
    const claimed = tx
      .update(invitations)
      .set({ acceptedAt: new Date() })
      .where(and(eq(invitations.id, open.id), isNull(invitations.acceptedAt)))
      .run();
    if (claimed.changes === 0) throw new ToolshedError("conflict", "This invitation was just used.", "token");
    const current = tx
      .select({ role: teamMembers.role })
      .from(teamMembers)
      .where(and(eq(teamMembers.teamId, open.teamId), eq(teamMembers.userId, userId)))
      .get();
    const rank = { viewer: 1, editor: 2, admin: 3 } as const;
    if (!current) tx.insert(teamMembers).values({ teamId: open.teamId, userId, role: open.role }).run();
    else if (rank[open.role] > rank[current.role])
      tx.update(teamMembers)
        .set({ role: open.role })
        .where(and(eq(teamMembers.teamId, open.teamId), eq(teamMembers.userId, userId)))
        .run();
  });
  return open;
}

/** Changes the role of someone who is already a member (404 otherwise); a team never loses its last admin. */
export function changeMemberRole(db: Db, teamId: string, userId: string, role: TeamRole): TeamMember {
  return writeTransaction(db, (tx) => {
    const inner = tx as unknown as Db;
    getTeam(inner, teamId);
    const member = () => listMembers(inner, teamId).find((candidate) => candidate.userId === userId);
    if (!member()) throw notFound("Team member", "userId");
    setMemberRole(inner, teamId, userId, role);
    return member()!;
  });
}

/**
 * Invites someone who is not a member yet: a second pending invitation for the same e-mail, or one
 * for a member, is refused (409) so that every pending invitation names a different person.
 */
export function inviteMember(db: Db, teamId: string, input: { email: string; role: TeamRole }, invitedBy: string): { invitation: Invitation; secret: string } {
  const email = normaliseEmail(input.email);
  if (listMembers(db, teamId).some((member) => member.email === email)) {
    throw new ToolshedError("conflict", `${email} is already a member of this team: change their role instead.`, "email");
  }
  const pending = db
    .select({ id: invitations.id })
    .from(invitations)
    .where(and(eq(invitations.teamId, teamId), eq(invitations.email, email), isNull(invitations.acceptedAt), gt(invitations.expiresAt, new Date())))
    .get();
  if (pending) throw new ToolshedError("conflict", `${email} already has a pending invitation: revoke it to send a new one.`, "email");
  return createInvitation(db, teamId, { email, role: input.role }, invitedBy);
}
