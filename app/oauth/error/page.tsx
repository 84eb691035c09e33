import { authorizationErrorWords } from "@/lib/auth/oauth";
import { searchParamsOf } from "@/lib/http";

export const dynamic = "force-dynamic";
export const metadata = { title: "Cannot connect" };

/** Codes are short tokens (RFC 6749 §5.2); anything else is shown as no code at all. */
const ERROR_CODE = /^[a-z_]{1,64}$/;

/**
 * Where an authorization request that cannot go back to its client ends (better-auth's errorURL,
 * and app/_services/oauth.ts for the errors Toolshed raises itself): what went wrong, in our words.
 */
export default async function OAuthErrorPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const code = searchParamsOf(await searchParams).get("error");
  const shownCode = code !== null && ERROR_CODE.test(code) ? code : null;
  const words = authorizationErrorWords(shownCode);
  return (
    <main className="page narrow stack" data-testid="oauth-error">
      <h1>This application cannot be connected</h1>
      <p>{words}</p>
      {shownCode ? (
        <p className="muted small">
          Error code: <code data-testid="oauth-error-code">{shownCode}</code>
        </p>
      ) : null}
      <p>Start again from the application that sent you here.</p>
    </main>
  );
}
