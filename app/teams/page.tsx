import { pageUser } from "@/app/_services/access";
import { getDb } from "@/db/client";
import { listTeams } from "@/db/queries/teams";
import { TeamList } from "@/components/team-list";
import { mayCreateTeams } from "@/lib/auth/policy";

export const dynamic = "force-dynamic";
export const metadata = { title: "Teams" };

export default async function TeamsPage() {
  const user = await pageUser();
  const teams = (await listTeams(getDb(), Object.keys(user.roles))).map((team) => ({ ...team, role: user.roles[team.id] }));
  return (
    <main className="page">
      <div className="page-header">
        <div>
          <h1>Teams</h1>
          <p className="sub">Every catalog belongs to a team; your role in the team says what you may do with its catalogs.</p>
        </div>
      </div>
      <TeamList teams={teams} mayCreate={mayCreateTeams(user)} />
    </main>
  );
}
