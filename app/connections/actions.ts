"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { actionPrincipal, enforceRateLimit } from "@/app/_services/access";
import { connectWithSecret, disconnectFromServer, startOAuthConnection } from "@/app/_services/mcp-connections";
import { getDb } from "@/db/client";
import { runAction } from "@/lib/action-result";
import type { UserPrincipal } from "@/lib/auth/policy";
import { parseWith } from "@/lib/http";
import { PersonalSecretSchema } from "@/lib/sources/mcp/user-credentials";

/** Which server: its catalog and name, as the Connections page names them. */
const serverInput = z.strictObject({ catalog: z.string().min(1).max(200), server: z.string().min(1).max(32) });

/** Runs `work` for the signed-in person on the server `target` names, within their write rate. */
function forPerson<T>(target: unknown, work: (principal: UserPrincipal, catalog: string, server: string) => Promise<T>) {
  return runAction(async () => {
    const principal = await actionPrincipal();
    await enforceRateLimit(principal, "write");
    const { catalog, server } = parseWith(serverInput, target);
    return work(principal, catalog, server);
  });
}

/** The signed-in person enters their own secret for a per-person MCP server (stored encrypted, never shown again). */
export async function connectWithSecretAction(target: unknown, secret: unknown) {
  return forPerson(target, async (principal, catalog, server) => {
    await connectWithSecret(getDb(), principal, catalog, server, parseWith(PersonalSecretSchema, secret));
    revalidatePath("/connections");
    return { connected: true };
  });
}

/** Starts the signed-in person's OAuth sign-in at a per-person MCP server: where to send the browser (or connected already, by a refresh). */
export async function startOAuthConnectionAction(target: unknown) {
  return forPerson(target, (principal, catalog, server) => startOAuthConnection(getDb(), principal, catalog, server));
}

/** The signed-in person forgets their own credential for a per-person MCP server. */
export async function disconnectAction(target: unknown) {
  return forPerson(target, async (principal, catalog, server) => {
    await disconnectFromServer(getDb(), principal, catalog, server);
    revalidatePath("/connections");
    return { disconnected: true };
  });
}
