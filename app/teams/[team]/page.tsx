import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { currentUser, pageUser } from "@/app/_services/access";
import { getDb } from "@/db/client";
import { listApiTokens } from "@/db/queries/api-tokens";
import { getTeam, listInvitations, listMembers } from "@/db/queries/teams";
import { isTeamRole } from "@/lib/auth/policy";
import { TeamInvitations } from "@/components/team-invitations";
import { TeamMembers } from "@/components/team-members";
import { TeamTokens } from "@/components/team-tokens";

export const dynamic = "force-dynamic";

/** The team's name, for those who are in it (to anyone else the page is not found). */
export async function generateMetadata({ params }: { params: Promise<{ team: string }> }): Promise<Metadata> {
  const { team: teamId } = await params;
  const user = await currentUser();
  return { title: user && isTeamRole(user.roles[teamId]) ? `Team ${(await getTeam(getDb(), teamId)).name}` : "Not found" };
}

const ROLE_TEXT = {
  viewer: "You may look at this team's catalogs, simulate and replay.",
  editor: "You may also change tools, rules and agents.",
  admin: "You manage members, invitations, API tokens and sources.",
} as const;

export default async function TeamPage({ params }: { params: Promise<{ team: string }> }) {
  const { team: teamId } = await params;
  const user = await pageUser();
  const role = isTeamRole(user.roles[teamId]) ? user.roles[teamId] : undefined;
  // A team the person is not part of looks exactly like one that does not exist.
  if (!role) notFound();
  const db = getDb();
  const team = await getTeam(db, teamId);
  const isAdmin = role === "admin";
  return (
    <main className="page stack">
      <div>
        <div className="crumbs">
          <Link href="/teams">Teams</Link> /
        </div>
        <div className="page-header">
          <div>
            <h1 data-testid="team-title">{team.name}</h1>
            <p className="sub">{ROLE_TEXT[role]}</p>
          </div>
          <span className={`badge${isAdmin ? " ok" : ""}`} data-testid="team-role" title="Your role in this team">
            {role} · {team.id}
          </span>
        </div>
      </div>
      <TeamMembers teamId={team.id} members={await listMembers(db, team.id)} canManage={isAdmin} selfId={user.id} />
      {isAdmin && (
        <>
          <TeamInvitations teamId={team.id} invitations={await listInvitations(db, team.id)} now={Date.now()} />
          <TeamTokens teamId={team.id} tokens={await listApiTokens(db, team.id)} />
        </>
      )}
    </main>
  );
}
