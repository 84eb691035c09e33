"use client";

import { toast } from "sonner";
import { createInvitationAction, revokeInvitationAction } from "@/app/teams/actions";
import type { Invitation } from "@/db/queries/teams";
import { TEAM_ROLES } from "@/lib/auth/policy";
import { ConfirmButton } from "./confirm-button";
import { RevealingForm, TeamTable, useTeamAction } from "./team-kit";
import { LocalTime } from "./local-time";

function statusOf(invitation: Invitation, now: number): "accepted" | "expired" | "pending" {
  if (invitation.acceptedAt) return "accepted";
  return Date.parse(invitation.expiresAt) <= now ? "expired" : "pending";
}

const STATUS_BADGE = { accepted: "badge ok", expired: "badge off", pending: "badge warn" } as const;

/** Admins invite people by e-mail; the link is shown once, right after it is made. */
export function TeamInvitations({ teamId, invitations, now }: { teamId: string; invitations: Invitation[]; now: number }) {
  return (
    <section className="stack" data-testid="team-invitations">
      <h2>Invitations</h2>
      <RevealingForm
        testId="invite-form"
        text={{ name: "email", label: "E-mail", placeholder: "person@example.com", maxLength: 254, testId: "invite-email" }}
        choice={{
          name: "role",
          label: "Role",
          options: TEAM_ROLES.map((role) => ({ value: role, label: role })),
          defaultValue: "viewer",
          testId: "invite-role",
        }}
        submit={{ label: "Create invitation", testId: "invite-submit" }}
        action={(input) => createInvitationAction(teamId, input)}
        reveal={({ invitation, link }) => ({
          message: `Invitation for ${invitation.email} created`,
          shown: {
            label: `Invitation link for ${invitation.email}`,
            value: link,
            testId: "invitation-link",
            note: "Send this link to them yourself. It is shown only now, works once and expires in 7 days.",
          },
        })}
      />
      <TeamTable
        testId="invitation-table"
        headings={["E-mail", "Role", "Invited by", "Status", "Accepted by", "Expires", ""]}
        rows={invitations.map((invitation) => <InvitationRow key={invitation.id} teamId={teamId} invitation={invitation} status={statusOf(invitation, now)} />)}
        empty="No invitations yet."
      />
    </section>
  );
}

/** Who accepted, and whether their address is proven or only claimed by whoever opened the link. */
function Acceptor({ acceptor }: { acceptor: Invitation["acceptedBy"] }) {
  if (!acceptor) return <span className="muted">—</span>;
  return (
    <>
      {acceptor.name} <span className="small mono">{acceptor.email}</span>{" "}
      {acceptor.emailVerified ? (
        <span className="badge ok" title="Proven by the operator or a sign-in provider">
          address proven
        </span>
      ) : (
        <span className="badge warn" title="Whoever opened the invitation link chose the password; nothing proves they own the address">
          address unproven
        </span>
      )}
    </>
  );
}

function InvitationRow({ teamId, invitation, status }: { teamId: string; invitation: Invitation; status: ReturnType<typeof statusOf> }) {
  const { run } = useTeamAction();
  return (
    <tr data-testid={`invitation-row-${invitation.email}`}>
      <td>{invitation.email}</td>
      <td>{invitation.role}</td>
      <td>{invitation.invitedBy}</td>
      <td>
        <span className={STATUS_BADGE[status]} data-testid={`invitation-status-${invitation.email}`}>
          {status}
          {status === "accepted" && invitation.acceptedAt && (
            <>
              {" "}
              <LocalTime iso={invitation.acceptedAt} />
            </>
          )}
        </span>
      </td>
      <td data-testid={`invitation-acceptor-${invitation.email}`}>
        <Acceptor acceptor={invitation.acceptedBy} />
      </td>
      <td className="small mono">{status === "accepted" ? "—" : <LocalTime iso={invitation.expiresAt} />}</td>
      <td>
        {status !== "accepted" && (
          <ConfirmButton
            label={status === "pending" ? "Revoke" : "Remove"}
            className="danger small-button"
            testId={`invitation-revoke-${invitation.email}`}
            title={`Revoke the invitation for ${invitation.email}?`}
            body={<>Its link stops working at once.</>}
            confirmLabel="Revoke invitation"
            onConfirm={() =>
              run(
                () => revokeInvitationAction(teamId, invitation.id),
                () => toast.success(`Invitation for ${invitation.email} revoked`),
              )
            }
          />
        )}
      </td>
    </tr>
  );
}
