"use client";

import { useRouter } from "next/navigation";
import { toast } from "sonner";
import { removeMemberAction, setMemberRoleAction } from "@/app/teams/actions";
import type { TeamMember } from "@/db/queries/teams";
import { TEAM_ROLES, type TeamRole } from "@/lib/auth/policy";
import { ConfirmButton } from "./confirm-button";
import { TeamTable, useTeamAction } from "./team-kit";
import { LocalTime } from "./local-time";

/** The team's members; admins may change roles and remove people, everyone else only reads. */
export function TeamMembers({ teamId, members, canManage, selfId }: { teamId: string; members: TeamMember[]; canManage: boolean; selfId: string }) {
  return (
    <section className="stack" data-testid="team-members">
      <h2>Members ({members.length})</h2>
      <TeamTable
        testId="member-table"
        headings={["E-mail", "Name", "Role", "Member since", ...(canManage ? [""] : [])]}
        rows={members.map((member) => (
          <MemberRow key={member.userId} teamId={teamId} member={member} canManage={canManage} isSelf={member.userId === selfId} />
        ))}
        empty="No members."
      />
    </section>
  );
}

function MemberRow({ teamId, member, canManage, isSelf }: { teamId: string; member: TeamMember; canManage: boolean; isSelf: boolean }) {
  const router = useRouter();
  const { pending, run } = useTeamAction();
  return (
    <tr data-testid={`member-row-${member.email}`}>
      <td>
        {member.email} {isSelf && <span className="badge">you</span>}
      </td>
      <td>{member.name}</td>
      <td>
        {canManage ? (
          <select
            // Keyed by role: a refused change (e.g. the last admin) puts the select back as it was.
            key={member.role}
            defaultValue={member.role}
            disabled={pending}
            aria-label={`Role of ${member.email}`}
            data-testid={`member-role-${member.email}`}
            onChange={(event) => {
              const select = event.currentTarget;
              const role = select.value as TeamRole;
              run(
                () => setMemberRoleAction(teamId, member.userId, { role }),
                () => toast.success(`${member.email} is now ${role}`),
                () => (select.value = member.role),
              );
            }}
          >
            {TEAM_ROLES.map((role) => (
              <option key={role} value={role}>
                {role}
              </option>
            ))}
          </select>
        ) : (
          <span className={`badge${member.role === "admin" ? " ok" : ""}`}>{member.role}</span>
        )}
      </td>
      <td className="small mono">
        <LocalTime iso={member.since} />
      </td>
      {canManage && (
        <td>
          <ConfirmButton
            label="Remove"
            className="danger small-button"
            testId={`member-remove-${member.email}`}
            title={isSelf ? "Leave this team?" : `Remove ${member.email}?`}
            body={
              isSelf ? (
                <>You will lose access to this team and its catalogs.</>
              ) : (
                <>{member.email} loses access to this team and its catalogs. An invitation can bring them back.</>
              )
            }
            confirmLabel={isSelf ? "Leave team" : "Remove member"}
            onConfirm={() =>
              run(
                () => removeMemberAction(teamId, member.userId),
                () => {
                  toast.success(isSelf ? "You left the team" : `${member.email} removed`);
                  if (isSelf) router.push("/teams");
                },
              )
            }
          />
        </td>
      )}
    </tr>
  );
}
