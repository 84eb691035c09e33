"use server";

import { revalidatePath } from "next/cache";
import { actionPrincipal, enforceRateLimit, requireTeamAccess } from "@/app/_services/access";
import { getDb } from "@/db/client";
import { createApiToken, revokeApiToken } from "@/db/queries/api-tokens";
import { changeMemberRole, createTeam, inviteMember, removeMember, revokeInvitation } from "@/db/queries/teams";
import { runAction } from "@/lib/action-result";
import { publicOrigin } from "@/lib/auth/origin";
import { actorOf, requireTeamCreation, type Access } from "@/lib/auth/policy";
import { parseWith } from "@/lib/http";
import { apiTokenBody, createTeamBody, invitationBody, memberRoleBody } from "@/lib/team-schemas";

/** The signed-in caller, checked for `need` in the team and charged one write; returns the audit actor. */
async function authorizeTeamAction(teamId: string, need: Access) {
  const principal = await actionPrincipal();
  requireTeamAccess(principal, teamId, need);
  await enforceRateLimit(principal, "write");
  return { principal, actor: actorOf(principal) };
}

function refresh(teamId?: string) {
  revalidatePath("/teams");
  if (teamId) revalidatePath(`/teams/${teamId}`);
}

export async function createTeamAction(input: unknown) {
  return runAction(async () => {
    const principal = await actionPrincipal();
    requireTeamCreation(principal);
    await enforceRateLimit(principal, "write");
    const team = await createTeam(getDb(), parseWith(createTeamBody, input), principal.id);
    refresh();
    return team;
  });
}

export async function setMemberRoleAction(teamId: string, userId: string, input: unknown) {
  return runAction(async () => {
    await authorizeTeamAction(teamId, "admin");
    const member = await changeMemberRole(getDb(), teamId, userId, parseWith(memberRoleBody, input).role);
    refresh(teamId);
    return member;
  });
}

export async function removeMemberAction(teamId: string, userId: string) {
  return runAction(async () => {
    await authorizeTeamAction(teamId, "admin");
    await removeMember(getDb(), teamId, userId);
    refresh(teamId);
    return { userId };
  });
}

/** Returns the invitation with its link: the only time the link's secret leaves the server. */
export async function createInvitationAction(teamId: string, input: unknown) {
  return runAction(async () => {
    const { actor } = await authorizeTeamAction(teamId, "admin");
    const { invitation, secret } = await inviteMember(getDb(), teamId, parseWith(invitationBody, input), actor);
    refresh(teamId);
    return { invitation, link: `${publicOrigin()}/invite/${secret}` };
  });
}

export async function revokeInvitationAction(teamId: string, id: string) {
  return runAction(async () => {
    await authorizeTeamAction(teamId, "admin");
    await revokeInvitation(getDb(), teamId, id);
    refresh(teamId);
    return { id };
  });
}

/** Returns the token with its secret: the only time the secret leaves the server. */
export async function createTokenAction(teamId: string, input: unknown) {
  return runAction(async () => {
    const { actor } = await authorizeTeamAction(teamId, "admin");
    const created = await createApiToken(getDb(), teamId, parseWith(apiTokenBody, input), actor);
    refresh(teamId);
    return created;
  });
}

export async function revokeTokenAction(teamId: string, id: string) {
  return runAction(async () => {
    await authorizeTeamAction(teamId, "admin");
    const token = await revokeApiToken(getDb(), teamId, id);
    refresh(teamId);
    return token;
  });
}
