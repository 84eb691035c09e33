import { redirect } from "next/navigation";
import { currentUser } from "@/app/_services/access";
import { SignInForm } from "@/components/sign-in-form";
import { safeReturnPath } from "@/lib/auth/forms";
import { authorizeReturnPath } from "@/lib/auth/oauth";
import { searchParamsOf } from "@/lib/http";
import { signInButtons, signInProvidersFromEnv } from "@/lib/auth/sign-in-providers";

export const metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const query = await searchParams;
  // The OAuth authorization server sends people here with its request's parameters: signed in, they resume it.
  const returnTo = authorizeReturnPath(searchParamsOf(query)) ?? safeReturnPath(query.next);
  if (await currentUser()) redirect(returnTo);
  return (
    <main className="page narrow">
      <h1>Sign in to Toolshed</h1>
      <SignInForm returnTo={returnTo} providers={signInButtons(signInProvidersFromEnv())} />
      <p className="muted small">
        No account yet? Accounts are created from an invitation a team admin sends you. The very first admin uses the setup link the server printed in its log
        at start.
      </p>
    </main>
  );
}
