"use client";

import { toast } from "sonner";
import { createTokenAction, revokeTokenAction } from "@/app/teams/actions";
import type { ApiToken } from "@/db/queries/api-tokens";
import { TEAM_TOKEN_SCOPES } from "@/lib/auth/policy";
import { ConfirmButton } from "./confirm-button";
import { RevealingForm, TeamTable, useTeamAction } from "./team-kit";
import { LocalTime } from "./local-time";

const SCOPE_HINTS = {
  read: "read: tool lists, preselection, ToolSearch, decisions",
  write: "write: also what an editor may change",
  admin: "admin: everything an admin may do",
} as const;

/** Admins create API tokens for agents and CI; a token's secret is shown once, right after it is made. */
export function TeamTokens({ teamId, tokens }: { teamId: string; tokens: ApiToken[] }) {
  return (
    <section className="stack" data-testid="team-tokens">
      <h2>API tokens</h2>
      <RevealingForm
        testId="token-form"
        text={{ name: "name", label: "Name", placeholder: "e.g. ci or support-agent", maxLength: 64, testId: "token-name" }}
        choice={{
          name: "scope",
          label: "Scope",
          options: TEAM_TOKEN_SCOPES.map((scope) => ({ value: scope, label: SCOPE_HINTS[scope] })),
          defaultValue: "read",
          testId: "token-scope",
        }}
        submit={{ label: "Create token", testId: "token-submit" }}
        action={(input) => createTokenAction(teamId, input)}
        reveal={({ token, secret }) => ({
          message: `Token "${token.name}" created`,
          shown: {
            label: `Secret of token "${token.name}"`,
            value: secret,
            testId: "new-token-secret",
            note: (
              <>
                Copy it now: it will not be shown again. Send it as <code>Authorization: Bearer &lt;token&gt;</code>.
              </>
            ),
          },
        })}
      />
      <TeamTable
        testId="token-table"
        headings={["Name", "Scope", "Prefix", "Created by", "Created", "Last used", "Status", ""]}
        rows={tokens.map((token) => <TokenRow key={token.id} teamId={teamId} token={token} />)}
        empty="No tokens yet."
      />
    </section>
  );
}

function TokenRow({ teamId, token }: { teamId: string; token: ApiToken }) {
  const { run } = useTeamAction();
  return (
    <tr data-testid={`token-row-${token.name}`} className={token.revokedAt ? "disabled" : undefined}>
      <td className="name">{token.name}</td>
      <td>
        <span className="badge">{token.scope}</span>
      </td>
      <td className="mono">{token.prefix}…</td>
      <td>{token.createdBy}</td>
      <td className="small mono">
        <LocalTime iso={token.createdAt} />
      </td>
      <td className="small mono" data-testid={`token-last-used-${token.name}`}>
        {token.lastUsedAt ? <LocalTime iso={token.lastUsedAt} /> : "never"}
      </td>
      <td>
        {token.revokedAt ? (
          <span className="badge off" data-testid={`token-status-${token.name}`}>
            revoked <LocalTime iso={token.revokedAt} />
          </span>
        ) : (
          <span className="badge ok" data-testid={`token-status-${token.name}`}>
            active
          </span>
        )}
      </td>
      <td>
        {!token.revokedAt && (
          <ConfirmButton
            label="Revoke"
            className="danger small-button"
            testId={`token-revoke-${token.name}`}
            title={`Revoke token "${token.name}"?`}
            body={<>Every agent or script using it is refused from now on. This cannot be undone.</>}
            confirmLabel="Revoke token"
            onConfirm={() =>
              run(
                () => revokeTokenAction(teamId, token.id),
                () => toast.success(`Token "${token.name}" revoked`),
              )
            }
          />
        )}
      </td>
    </tr>
  );
}
