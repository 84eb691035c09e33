"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { actionPrincipal, enforceRateLimit } from "@/app/_services/access";
import { revokeGrant } from "@/app/_services/oauth-grants";
import { runAction } from "@/lib/action-result";
import { parseWith } from "@/lib/http";

/** A client id: a CIMD client's is its metadata document's URL. */
const clientIdInput = z.string().min(1).max(2048);

/** The signed-in person revokes what they allowed an OAuth client (Settings → Applications). */
export async function revokeOAuthGrantAction(clientId: unknown) {
  return runAction(async () => {
    const principal = await actionPrincipal();
    await enforceRateLimit(principal, "write");
    await revokeGrant(principal, parseWith(clientIdInput, clientId));
    revalidatePath("/settings");
    return { revoked: true };
  });
}
