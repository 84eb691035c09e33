import { pageUser } from "@/app/_services/access";
import { readConsentRequest } from "@/app/_services/oauth-consent";
import { OAuthConsentForm } from "@/components/oauth-consent-form";
import { searchParamsOf } from "@/lib/http";

export const dynamic = "force-dynamic";
export const metadata = { title: "Allow access" };

/** What each scope lets a client do, in the words of the consent page. */
const SCOPE_WORDS: Record<string, string> = {
  "tools:read": "see and search the catalog's tools through its MCP gateway",
  "tools:call": "call the catalog's tools, and read what its MCP servers offer, as you",
  offline_access: "stay connected without asking you again (a refresh token)",
};

/**
 * The OAuth consent page (the authorization server's consentPage): which client asks for which
 * catalog, with which scopes; Allow or Deny. Reached only through the authorization endpoint,
 * whose signed query it checks (app/_services/oauth-consent.ts).
 */
export default async function OAuthConsentPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const principal = await pageUser();
  const request = await readConsentRequest(searchParamsOf(await searchParams), principal);
  if (request.kind === "invalid") {
    return (
      <main className="page narrow">
        <h1>This authorization request has expired</h1>
        <p>Start again from the application that sent you here.</p>
      </main>
    );
  }
  if (request.kind === "refused") {
    return (
      <main className="page narrow stack">
        <h1>{request.clientName} cannot be allowed in</h1>
        <p>{request.reason}</p>
        <OAuthConsentForm oauthQuery={request.oauthQuery} scope={null} />
      </main>
    );
  }
  return (
    <main className="page narrow stack">
      <h1>
        Allow {request.clientName} to use catalog “{request.catalogName}”?
      </h1>
      <p className="muted small">
        Signed in as {principal.email}. The application identifies itself as <code>{request.clientId}</code>
        {request.clientUri ? (
          <>
            {" "}
            (its site: <code>{request.clientUri}</code>)
          </>
        ) : null}
        .
      </p>
      <p>It will be able to:</p>
      <ul>
        {request.granted.map((scope) => (
          <li key={scope} data-testid={`scope-${scope}`}>
            {SCOPE_WORDS[scope] ?? scope}
          </li>
        ))}
      </ul>
      {request.withheld.length > 0 ? (
        <p className="muted small">
          Your role in this catalog does not allow: {request.withheld.map((scope) => SCOPE_WORDS[scope]).join("; ")}. It will not get that.
        </p>
      ) : null}
      <p className="muted small">Only catalog “{request.catalogId}”, and only while you keep your role in its team. You can revoke this in Settings.</p>
      <OAuthConsentForm oauthQuery={request.oauthQuery} scope={request.scope} />
    </main>
  );
}
