"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { actionPrincipal, enforceRateLimit } from "@/app/_services/access";
import { MIN_PASSWORD_LENGTH, getAuth } from "@/app/_services/auth";
import { createInvitedAccount } from "@/app/_services/invitations";
import { signInWithPassword } from "@/app/_services/sign-in-guard";
import { getDb } from "@/db/client";
import { acceptInvitation, findOpenInvitation, type OpenInvitation } from "@/db/queries/teams";
import { runAction, type ActionResult } from "@/lib/action-result";
import { ToolshedError } from "@/lib/errors";
import { parseWith } from "@/lib/http";
import { consumeRateLimit } from "@/app/_services/rate-limits";
import { invitedAccountBody } from "@/lib/team-schemas";

const linkSecret = z.string().min(1).max(200);

async function openInvitation(secret: unknown): Promise<OpenInvitation & { secret: string }> {
  const parsed = linkSecret.safeParse(secret);
  const open = parsed.success ? await findOpenInvitation(getDb(), parsed.data) : undefined;
  if (!open) throw new ToolshedError("not_found", "This invitation link is not valid: it was used, revoked or has expired.", "token");
  return { ...open, secret: parsed.data! };
}

/** A signed-in person accepts an invitation to their own e-mail, then lands on the team's page. */
export async function acceptInvitationAction(secret: string): Promise<ActionResult<never>> {
  const result = await runAction(async () => {
    const principal = await actionPrincipal();
    await enforceRateLimit(principal, "write");
    const open = await openInvitation(secret);
    if (open.email !== principal.email.toLowerCase()) {
      throw new ToolshedError("forbidden", `This invitation is for ${open.email}, and you are signed in as ${principal.email}: sign out first.`);
    }
    return acceptInvitation(getDb(), open.secret, principal.id);
  });
  if (!result.ok) return result;
  redirect(`/teams/${encodeURIComponent(result.data.teamId)}`);
}

/**
 * Someone without an account (or whose only account's address is unproven) follows their invitation:
 * creates the account for the invited e-mail (the form cannot choose another), joins the team, is
 * signed in and lands on the home page.
 */
export async function createInvitedAccountAction(secret: string, input: unknown): Promise<ActionResult<never>> {
  const result = await runAction(async () => {
    const body = parseWith(invitedAccountBody(MIN_PASSWORD_LENGTH), input);
    const open = await openInvitation(secret);
    const verdict = await consumeRateLimit("auth", `invitation:${open.id}`);
    if (!verdict.ok) {
      throw new ToolshedError(
        "rate_limited",
        `Too many attempts; try again in ${verdict.retryAfterSeconds} s.`,
        undefined,
        undefined,
        verdict.retryAfterSeconds,
      );
    }
    await signInWithPassword({ email: open.email, password: body.password }, await headers(), () => createInvitedAccount(open, body));
  });
  if (!result.ok) return result;
  redirect("/");
}

/** Signs out whoever is signed in and comes back to the invitation, so the invited person can accept it. */
export async function signOutForInvitationAction(secret: string): Promise<void> {
  try {
    await getAuth().api.signOut({ headers: await headers() });
  } catch {
    // No session to end: the invitation page is what they need either way.
  }
  const parsed = linkSecret.safeParse(secret);
  redirect(parsed.success ? `/invite/${encodeURIComponent(parsed.data)}` : "/sign-in");
}
