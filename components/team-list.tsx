"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { toast } from "sonner";
import { createTeamAction } from "@/app/teams/actions";
import type { TeamRole } from "@/lib/auth/policy";
import { formProblems, useTeamAction, type ActionError } from "./team-kit";

export interface MyTeam {
  id: string;
  name: string;
  role: TeamRole;
}

/** `mayCreate`: whether this person may create teams (instance admins, or everyone when the operator opened it). */
export function TeamList({ teams, mayCreate }: { teams: MyTeam[]; mayCreate: boolean }) {
  return (
    <div className="stack">
      {mayCreate ? (
        <CreateTeamForm />
      ) : (
        <p className="panel muted small" data-testid="team-create-note">
          Instance admins create teams (the operator may let everyone, with <code>TOOLSHED_TEAM_CREATION=everyone</code>): ask one for a new team.
        </p>
      )}
      {teams.length === 0 ? (
        <div className="panel empty" data-testid="teams-empty">
          <strong>No teams yet</strong>
          {mayCreate ? "Create one above, or ask a team admin for an invitation." : "Ask a team admin for an invitation."}
        </div>
      ) : (
        <div className="cards" data-testid="team-list">
          {teams.map((team) => (
            <div key={team.id} className="card" data-testid={`team-${team.id}`}>
              <div className="spread">
                <Link className="title" href={`/teams/${team.id}`} data-testid={`team-link-${team.id}`}>
                  {team.name}
                </Link>
                <code className="faint">{team.id}</code>
              </div>
              <div className="row">
                <span className="muted small">Your role</span>
                <span className={`badge${team.role === "admin" ? " ok" : ""}`} data-testid={`team-role-${team.id}`}>
                  {team.role}
                </span>
              </div>
            </div>
          ))}
        </div>
      )}
    </div>
  );
}

function CreateTeamForm() {
  const router = useRouter();
  const { pending, run } = useTeamAction();
  const [error, setError] = useState<ActionError>();
  const problems = formProblems(error, ["name", "id"]);
  const problem = problems.name ?? problems.id;
  return (
    <form
      className="panel row"
      data-testid="create-team"
      onSubmit={(event) => {
        event.preventDefault();
        const form = event.currentTarget;
        const name = String(new FormData(form).get("name"));
        run(
          () => createTeamAction({ name }),
          (team) => {
            setError(undefined);
            form.reset();
            toast.success(`Team "${team.name}" created`);
            router.push(`/teams/${team.id}`);
          },
          setError,
        );
      }}
    >
      <div className="field" style={{ flex: "0 0 320px" }}>
        <label htmlFor="team-name">New team</label>
        <input
          id="team-name"
          name="name"
          placeholder="Name, e.g. Payments"
          required
          maxLength={80}
          data-testid="team-create-name"
          aria-invalid={!!problem}
          aria-describedby={problem ? "team-name-error" : undefined}
        />
      </div>
      <button type="submit" className="primary" disabled={pending} style={{ alignSelf: "flex-end" }} data-testid="team-create-submit">
        {pending ? "Creating…" : "Create team"}
      </button>
      {problem && (
        <div id="team-name-error" className="field-error" style={{ flexBasis: "100%" }} role="alert">
          {problem}
        </div>
      )}
    </form>
  );
}
