import "server-only";
import { and, asc, count, eq, gt, isNull } from "drizzle-orm";
import { hashSecretToken, newLinkSecret } from "@/lib/auth/tokens";
import type { TeamRole } from "@/lib/auth/policy";
import { CATALOG_ID_PATTERN, slugify } from "@/lib/catalogs/slug";
import { ToolshedError, notFound } from "@/lib/errors";
import { writeTransaction, type Db } from "../client";
import { catalogs, invitations, teamMembers, teams, users } from "../tables";

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
  /** Who accepted it, so that admins see whether the address's owner did; null while pending or once that account is deleted. */
  acceptedBy: InvitationAcceptor | null;
}

interface InvitationAcceptor {
  userId: string;
  name: string;
  email: string;
  /** Whether the address is proven to be theirs (by the operator or a sign-in provider), not only claimed through a link. */
  emailVerified: boolean;
}

export async function listTeams(db: Db, ids?: string[]): Promise<Team[]> {
  const rows = await db.select({ id: teams.id, name: teams.name }).from(teams).orderBy(asc(teams.name));
  return ids ? rows.filter((team) => ids.includes(team.id)) : rows;
}

export async function getTeam(db: Db, id: string): Promise<Team> {
  const [team] = await db.select({ id: teams.id, name: teams.name }).from(teams).where(eq(teams.id, id)).limit(1);
  if (!team) throw notFound(`Team "${id}"`, "team");
  return team;
}

/** Creates a team with its creator as admin. */
export async function createTeam(db: Db, input: { name: string; id?: string }, creatorId: string): Promise<Team> {
  const name = input.name.trim();
  if (!name || name.length > 80) throw new ToolshedError("bad_request", "A team name is 1-80 characters.", "name");
  const id = input.id ?? slugify(name);
  if (!CATALOG_ID_PATTERN.test(id))
    throw new ToolshedError("bad_request", "A team id is lowercase letters, digits and '-', at most 48 characters.", input.id ? "id" : "name");
  return writeTransaction(db, async (tx) => {
    if ((await tx.select({ id: teams.id }).from(teams).where(eq(teams.id, id)).limit(1)).length > 0) {
      throw new ToolshedError("conflict", `A team with id "${id}" already exists.`, input.id ? "id" : "name");
    }
    await tx.insert(teams).values({ id, name });
    await tx.insert(teamMembers).values({ teamId: id, userId: creatorId, role: "admin" });
    return { id, name };
  });
}

/** Every team role of a user, for building their principal. */
export async function rolesOfUser(db: Db, userId: string): Promise<Record<string, TeamRole>> {
  const rows = await db.select({ teamId: teamMembers.teamId, role: teamMembers.role }).from(teamMembers).where(eq(teamMembers.userId, userId));
  return Object.fromEntries(rows.map((row) => [row.teamId, row.role]));
}

export async function listMembers(db: Db, teamId: string): Promise<TeamMember[]> {
  await getTeam(db, teamId);
  const rows = await db
    .select({ userId: users.id, email: users.email, name: users.name, role: teamMembers.role, since: teamMembers.createdAt })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .where(eq(teamMembers.teamId, teamId))
    .orderBy(asc(users.email));
  return rows.map((row) => ({ ...row, since: row.since.toISOString() }));
}

async function adminCount(db: Pick<Db, "select">, teamId: string): Promise<number> {
  const [{ admins }] = await db
    .select({ admins: count() })
    .from(teamMembers)
    .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.role, "admin")));
  return admins;
}

/** Adds a member or changes their role; a team never loses its last admin. */
export async function setMemberRole(db: Db, teamId: string, userId: string, role: TeamRole): Promise<void> {
  await writeTransaction(db, async (tx) => {
    await getTeam(tx, teamId);
    const [current] = await tx
      .select({ role: teamMembers.role })
      .from(teamMembers)
      .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)))
      .limit(1);
    if (current?.role === "admin" && role !== "admin" && (await adminCount(tx, teamId)) <= 1) {
      throw new ToolshedError("conflict", "A team needs at least one admin: make someone else admin first.", "role");
    }
    if (current)
      await tx
        .update(teamMembers)
        .set({ role })
        .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)));
    else await tx.insert(teamMembers).values({ teamId, userId, role });
  });
}

export async function removeMember(db: Db, teamId: string, userId: string): Promise<void> {
  await writeTransaction(db, async (tx) => {
    const [current] = await tx
      .select({ role: teamMembers.role })
      .from(teamMembers)
      .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)))
      .limit(1);
    if (!current) throw notFound("Team member", "userId");
    if (current.role === "admin" && (await adminCount(tx, teamId)) <= 1) {
      throw new ToolshedError("conflict", "A team needs at least one admin: make someone else admin first.", "userId");
    }
    await tx.delete(teamMembers).where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)));
  });
}

export async function teamOfCatalog(db: Db, catalogId: string): Promise<string | undefined> {
  return (await db.select({ teamId: catalogs.teamId }).from(catalogs).where(eq(catalogs.id, catalogId)).limit(1))[0]?.teamId;
}

const normaliseEmail = (email: string) => email.trim().toLowerCase();

/** Creates an invitation and returns the secret of its link (stored only as a hash). */
export async function createInvitation(
  db: Db,
  teamId: string,
  input: { email: string; role: TeamRole },
  invitedBy: string,
): Promise<{ invitation: Invitation; secret: string }> {
  await getTeam(db, teamId);
  const secret = newLinkSecret();
  const [row] = await db
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
    .returning();
  return { invitation: toInvitation(row), secret };
}

function toInvitation(row: typeof invitations.$inferSelect, acceptedBy: InvitationAcceptor | null = null): Invitation {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    invitedBy: row.invitedBy,
    expiresAt: row.expiresAt.toISOString(),
    acceptedAt: row.acceptedAt?.toISOString() ?? null,
    acceptedBy,
  };
}

export async function listInvitations(db: Db, teamId: string): Promise<Invitation[]> {
  await getTeam(db, teamId);
  const rows = await db
    .select({ invitation: invitations, acceptor: { userId: users.id, name: users.name, email: users.email, emailVerified: users.emailVerified } })
    .from(invitations)
    .leftJoin(users, eq(users.id, invitations.acceptedBy))
    .where(eq(invitations.teamId, teamId))
    .orderBy(asc(invitations.createdAt));
  return rows.map((row) => toInvitation(row.invitation, row.acceptor));
}

export async function revokeInvitation(db: Db, teamId: string, id: string): Promise<void> {
  const deleted = await db
    .delete(invitations)
    .where(and(eq(invitations.teamId, teamId), eq(invitations.id, id), isNull(invitations.acceptedAt)))
    .returning({ id: invitations.id });
  if (deleted.length === 0) throw notFound("Pending invitation", "id");
}

export interface OpenInvitation extends Invitation {
  teamId: string;
  teamName: string;
}

/** The pending, unexpired invitation a link's secret stands for, or undefined. */
export async function findOpenInvitation(db: Db, secret: string): Promise<OpenInvitation | undefined> {
  const [row] = await db
    .select({ invitation: invitations, teamName: teams.name })
    .from(invitations)
    .innerJoin(teams, eq(teams.id, invitations.teamId))
    .where(and(eq(invitations.tokenHash, hashSecretToken(secret)), isNull(invitations.acceptedAt), gt(invitations.expiresAt, new Date())))
    .limit(1);
  return row && { ...toInvitation(row.invitation), teamId: row.invitation.teamId, teamName: row.teamName };
}

/** True when someone may create an account with this e-mail: a pending invitation names it. */
export async function hasOpenInvitationFor(db: Db, email: string): Promise<boolean> {
  const rows = await db
    .select({ id: invitations.id })
    .from(invitations)
    .where(and(eq(invitations.email, normaliseEmail(email)), isNull(invitations.acceptedAt), gt(invitations.expiresAt, new Date())))
    .limit(1);
  return rows.length > 0;
}

/** Uses an invitation once: the user joins the team with its role (a higher role they have is kept). */
export async function acceptInvitation(db: Db, secret: string, userId: string): Promise<OpenInvitation> {
  const open = await findOpenInvitation(db, secret);
  if (!open) throw new ToolshedError("not_found", "This invitation link is not valid: it was used, revoked or has expired.", "token");
  await writeTransaction(db, async (tx) => {
    const claimed = await tx
      .update(invitations)
      .set({ acceptedAt: new Date(), acceptedBy: userId })
      .where(and(eq(invitations.id, open.id), isNull(invitations.acceptedAt)))
      .returning({ id: invitations.id });
    if (claimed.length === 0) throw new ToolshedError("conflict", "This invitation was just used.", "token");
    const [current] = await tx
      .select({ role: teamMembers.role })
      .from(teamMembers)
      .where(and(eq(teamMembers.teamId, open.teamId), eq(teamMembers.userId, userId)))
      .limit(1);
    const rank = { viewer: 1, editor: 2, admin: 3 } as const;
    if (!current) await tx.insert(teamMembers).values({ teamId: open.teamId, userId, role: open.role });
    else if (rank[open.role] > rank[current.role])
      await tx
        .update(teamMembers)
        .set({ role: open.role })
        .where(and(eq(teamMembers.teamId, open.teamId), eq(teamMembers.userId, userId)));
  });
  return open;
}

/** Changes the role of someone who is already a member (404 otherwise); a team never loses its last admin. */
export async function changeMemberRole(db: Db, teamId: string, userId: string, role: TeamRole): Promise<TeamMember> {
  return writeTransaction(db, async (tx) => {
    await getTeam(tx, teamId);
    const member = async () => (await listMembers(tx, teamId)).find((candidate) => candidate.userId === userId);
    if (!(await member())) throw notFound("Team member", "userId");
    await setMemberRole(tx, teamId, userId, role);
    return (await member())!;
  });
}

/**
 * Invites someone who is not a member yet: a second pending invitation for the same e-mail, or one
 * for a member, is refused (409) so that every pending invitation names a different person.
 */
export async function inviteMember(
  db: Db,
  teamId: string,
  input: { email: string; role: TeamRole },
  invitedBy: string,
): Promise<{ invitation: Invitation; secret: string }> {
  const email = normaliseEmail(input.email);
  // One transaction: two invitations of the same person at once cannot both pass the checks.
  return writeTransaction(db, async (tx) => {
    if ((await listMembers(tx, teamId)).some((member) => member.email === email)) {
      throw new ToolshedError("conflict", `${email} is already a member of this team: change their role instead.`, "email");
    }
    const [pending] = await tx
      .select({ id: invitations.id })
      .from(invitations)
      .where(and(eq(invitations.teamId, teamId), eq(invitations.email, email), isNull(invitations.acceptedAt), gt(invitations.expiresAt, new Date())))
      .limit(1);
    if (pending) throw new ToolshedError("conflict", `${email} already has a pending invitation: revoke it to send a new one.`, "email");
    return createInvitation(tx, teamId, { email, role: input.role }, invitedBy);
  });
}
