"use server";

import { APIError } from "better-auth/api";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { getAuth } from "@/app/_services/auth";
import { completeSetup } from "@/app/_services/bootstrap";
import { getDb } from "@/db/client";
import { runAction } from "@/lib/action-result";
import { safeReturnPath, setupBody, signInBody } from "@/lib/auth/forms";
import { ToolshedError } from "@/lib/errors";
import { parseWith } from "@/lib/http";
import { consumeRateLimit } from "@/lib/rate-limit";

async function limitSignIn(email: string): Promise<void> {
  const requestHeaders = await headers();
  const address = requestHeaders.get("x-forwarded-for")?.split(",")[0].trim() || "direct";
  for (const key of [`email:${email.toLowerCase()}`, `address:${address}`]) {
    const verdict = await consumeRateLimit("auth", key);
    if (!verdict.ok) {
      throw new ToolshedError(
        "rate_limited",
        `Too many sign-in attempts; try again in ${verdict.retryAfterSeconds} s.`,
        undefined,
        undefined,
        verdict.retryAfterSeconds,
      );
    }
  }
}

/** Signs in with e-mail and password; the session cookie is set on this action's response. */
export async function signInAction(input: unknown) {
  return runAction(async () => {
    const { email, password } = parseWith(signInBody, input);
    await limitSignIn(email);
    try {
      await getAuth().api.signInEmail({ body: { email, password }, headers: await headers() });
    } catch (error) {
      if (error instanceof APIError) throw new ToolshedError("unauthorized", "Wrong e-mail or password.", "password");
      throw error;
    }
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
    await limitSignIn(body.email);
    await completeSetup(getDb(), token, body);
    await getAuth().api.signInEmail({ body: { email: body.email, password: body.password }, headers: await headers() });
    return { signedIn: true };
  });
}
