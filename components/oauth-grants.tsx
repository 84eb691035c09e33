"use client";

import { toast } from "sonner";
import { revokeOAuthGrantAction } from "@/app/settings/actions";
import type { GrantView } from "@/app/_services/oauth-grants";
import { ConfirmButton } from "./confirm-button";
import { LocalTime } from "./local-time";
import { useTeamAction } from "./team-kit";

/** The OAuth clients (MCP clients) the signed-in person allowed into catalog gateways, each revocable. */
export function OAuthGrants({ grants }: { grants: GrantView[] }) {
  const { pending, run } = useTeamAction();
  return (
    <section className="panel stack" data-testid="oauth-grants">
      <h2>Applications with access</h2>
      <p className="muted small">
        MCP clients you allowed to use catalog gateways as you, through OAuth. Revoking one refuses its tokens from its next request on.
      </p>
      {grants.length === 0 ? (
        <p className="muted">None.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th>Application</th>
              <th>May</th>
              <th>Catalogs</th>
              <th>Since</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {grants.map((grant) => (
              <tr key={grant.clientId} data-testid="oauth-grant">
                <td>
                  {grant.clientName}
                  <div className="muted small">
                    <code>{grant.clientId}</code>
                  </div>
                </td>
                <td>{grant.scopes.join(", ")}</td>
                <td>{grant.catalogs.join(", ") || "—"}</td>
                <td>
                  <LocalTime iso={grant.grantedAt} />
                </td>
                <td>
                  <ConfirmButton
                    label="Revoke"
                    title={`Revoke ${grant.clientName}'s access?`}
                    body={<>Its tokens are refused from its next request on; to come back it must ask you again.</>}
                    confirmLabel="Revoke access"
                    onConfirm={() =>
                      run(
                        () => revokeOAuthGrantAction(grant.clientId),
                        () => toast.success(`${grant.clientName} no longer has access`),
                      )
                    }
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {pending ? <p className="muted small">Revoking…</p> : null}
    </section>
  );
}
