import Link from "next/link";
import { signOutAction } from "@/app/sign-in/actions";

/** The header's right side: who is signed in, their teams, and signing out. */
export function UserMenu({ email }: { email?: string }) {
  if (!email) return <Link href="/sign-in">Sign in</Link>;
  return (
    <span className="row">
      <Link href="/teams" data-testid="nav-teams">
        Teams
      </Link>
      <span className="small muted" data-testid="signed-in-as">
        {email}
      </span>
      <form action={signOutAction}>
        <button type="submit" className="small-button" data-testid="sign-out">
          Sign out
        </button>
      </form>
    </span>
  );
}
