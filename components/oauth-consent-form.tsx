"use client";

import { useState } from "react";

/**
 * Allow (when `scope` is given: the scopes to grant) or Deny an OAuth authorization request: both
 * go to better-auth's consent endpoint with the request's signed query, which answers where the
 * browser goes next (back to the application, with a code or with access_denied).
 */
export function OAuthConsentForm({ oauthQuery, scope }: { oauthQuery: string; scope: string | null }) {
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const answer = async (accept: boolean) => {
    setBusy(true);
    setProblem(null);
    try {
      const response = await fetch("/api/auth/oauth2/consent", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ accept, oauth_query: oauthQuery, ...(accept && scope ? { scope } : {}) }),
      });
      const body = (await response.json().catch(() => ({}))) as { url?: string; error_description?: string; message?: string };
      if (response.ok && body.url) {
        window.location.assign(body.url);
        return;
      }
      setProblem(body.error_description ?? body.message ?? `The answer could not be recorded (${response.status}).`);
    } catch {
      setProblem("The server could not be reached: try again.");
    }
    setBusy(false);
  };
  return (
    <div className="stack">
      <div className="row">
        {scope !== null ? (
          <button type="button" className="primary" disabled={busy} onClick={() => answer(true)} data-testid="oauth-allow">
            Allow
          </button>
        ) : null}
        <button type="button" disabled={busy} onClick={() => answer(false)} data-testid="oauth-deny">
          Deny
        </button>
      </div>
      {problem ? (
        <div role="alert" className="error-box">
          {problem}
        </div>
      ) : null}
    </div>
  );
}
