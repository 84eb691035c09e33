import Link from "next/link";
import { currentUser } from "@/app/_services/access";
import { MIN_PASSWORD_LENGTH } from "@/app/_services/auth";
import { getDb } from "@/db/client";
import { findOpenInvitation } from "@/db/queries/teams";
import { findUserByEmail } from "@/db/queries/users";
import { InviteAcceptButton, InviteAccountForm, InviteSignOutButton } from "@/components/invite-forms";

export const dynamic = "force-dynamic";
// The address holds the invitation's secret: never send it to another site as a Referer.
export const metadata = { title: "Invitation", referrer: "no-referrer", robots: { index: false } };

export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const db = getDb();
  const invitation = token.length <= 200 ? await findOpenInvitation(db, token) : undefined;
  if (!invitation) {
    return (
      <main className="page narrow stack">
        <h1>Invitation</h1>
        <div className="error-box" role="alert" data-testid="invite-invalid">
          This invitation link is not valid: it was used, revoked or has expired. Ask a team admin for a new one.
        </div>
        <p className="small">
          <Link href="/">Go to Toolshed</Link>
        </p>
      </main>
    );
  }
  const user = await currentUser();
  const signInPath = `/sign-in?next=${encodeURIComponent(`/invite/${encodeURIComponent(token)}`)}`;
  const existing = user ? undefined : await findUserByEmail(db, invitation.email);
  return (
    <main className="page narrow stack">
      <div>
        <h1>Join {invitation.teamName}</h1>
        <p className="sub muted" data-testid="invite-summary">
          You are invited to team <strong data-testid="invite-team">{invitation.teamName}</strong> as{" "}
          <span className="badge" data-testid="invite-role">
            {invitation.role}
          </span>
          , for <strong data-testid="invite-email">{invitation.email}</strong>.
        </p>
      </div>
      {user ? (
        user.email.toLowerCase() === invitation.email ? (
          <div className="panel stack">
            <p>You are signed in as {user.email}.</p>
            <InviteAcceptButton token={token} teamName={invitation.teamName} />
          </div>
        ) : (
          <div className="panel stack" data-testid="invite-wrong-account">
            <p>
              This invitation is for <strong>{invitation.email}</strong>, but you are signed in as <strong>{user.email}</strong>. Sign out first, then open this
              link again to accept it as {invitation.email}.
            </p>
            <InviteSignOutButton token={token} />
          </div>
        )
      ) : existing?.emailVerified ? (
        <div className="panel stack">
          <p>An account for {invitation.email} exists already: sign in to accept the invitation.</p>
          <Link className="button primary" href={signInPath} data-testid="invite-sign-in">
            Sign in to accept
          </Link>
        </div>
      ) : existing ? (
        // Its address was never proven: it may be someone else's, made through an earlier link.
        <>
          <div className="panel stack" data-testid="invite-unproven-account">
            <p>An account for {invitation.email} exists already. If it is yours, sign in to accept the invitation.</p>
            <Link className="button" href={signInPath} data-testid="invite-sign-in">
              This is my account: sign in to accept
            </Link>
          </div>
          <InviteAccountForm token={token} email={invitation.email} minPasswordLength={MIN_PASSWORD_LENGTH} replacesUnprovenAccount />
        </>
      ) : (
        <>
          <InviteAccountForm token={token} email={invitation.email} minPasswordLength={MIN_PASSWORD_LENGTH} />
          <p className="small">
            <Link href={signInPath} data-testid="invite-sign-in">
              I already have an account
            </Link>
          </p>
        </>
      )}
    </main>
  );
}
