"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { getAuth } from "@/app/_services/auth";
import { completeSetup } from "@/app/_services/bootstrap";
import { signInWithPassword } from "@/app/_services/sign-in-guard";
import { getDb } from "@/db/client";
import { runAction } from "@/lib/action-result";
import { safeReturnPath, setupBody, signInBody } from "@/lib/auth/forms";
import { ToolshedError } from "@/lib/errors";
import { parseWith } from "@/lib/http";

/** Signs in with e-mail and password; the session cookie is set on this action's response. */
export async function signInAction(input: unknown) {
  return runAction(async () => {
    await signInWithPassword(parseWith(signInBody, input), await headers());
    return { signedIn: true };
  });
}

/** Starts GitHub or OpenID Connect sign-in: the browser goes to the provider's address this returns. */
export async function socialSignInAction(provider: "github" | "oidc", returnTo: string) {
  return runAction(async () => {
    // Generic OpenID Connect providers are registered as social providers, under their provider id.
    const answer = await getAuth().api.signInSocial({ body: { provider, callbackURL: safeReturnPath(returnTo) }, headers: await headers() });
    if (!answer.url) throw new ToolshedError("bad_request", `Sign-in with ${provider} is not configured.`);
    return { url: answer.url };
  });
}

export async function signOutAction() {
  await getAuth().api.signOut({ headers: await headers() });
  redirect("/sign-in");
}

/** The setup link's form: creates the first admin, then signs them in. */
export async function completeSetupAction(token: string, input: unknown) {
  return runAction(async () => {
    const body = parseWith(setupBody, input);
    await signInWithPassword(body, await headers(), () => completeSetup(getDb(), token, body));
    return { signedIn: true };
  });
}
