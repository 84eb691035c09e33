import "server-only";
import { log } from "@/lib/observability/log";
import { getDb } from "@/db/client";
import { acceptInvitation, type OpenInvitation } from "@/db/queries/teams";
import { deleteUnprovenUser, findUserByEmail } from "@/db/queries/users";
import { ToolshedError } from "@/lib/errors";
import { createPasswordUser } from "./auth";

const provenAccountExists = (email: string) =>
  new ToolshedError("conflict", `An account for ${email} exists already: sign in to accept the invitation.`, "email");

/**
 * Creates the account an invitation link asks for, with the invited address, and joins the team.
 * The address is not proven by this (whoever opened the link may not own it), so the account is
 * not verified. An existing account for the address whose address is not proven does not block
 * the invited person either: it may be a squatter's, made through an earlier link, so it is
 * replaced: deleted with its sessions, sign-in methods and team memberships, which neither the
 * squatter nor whoever replaces it keeps. A proven account is never replaced: its owner signs in.
 */
export async function createInvitedAccount(invitation: OpenInvitation & { secret: string }, input: { name: string; password: string }): Promise<void> {
  const db = getDb();
  const existing = await findUserByEmail(db, invitation.email);
  if (existing?.emailVerified) throw provenAccountExists(invitation.email);
  if (existing) {
    if (!(await deleteUnprovenUser(db, existing.id))) throw provenAccountExists(invitation.email);
    log.warn(
      `Invitation ${invitation.id} to team ${invitation.teamId} by ${invitation.invitedBy}: the unproven account ${existing.id} of ${invitation.email} was replaced by a new one (its sessions, sign-in methods and memberships are gone).`,
    );
  }
  const user = await createPasswordUser({ email: invitation.email, name: input.name, password: input.password }, { addressProven: false });
  await acceptInvitation(db, invitation.secret, user.id);
}
