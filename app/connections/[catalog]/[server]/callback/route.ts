import { z } from "zod";
import { enforceRateLimit, requestPerson } from "@/app/_services/access";
import { finishOAuthConnection } from "@/app/_services/mcp-connections";
import { getDb } from "@/db/client";
import { publicOrigin } from "@/lib/auth/origin";
import { ToolshedError } from "@/lib/errors";

const answerSchema = z.object({
  code: z.string().max(4_000).optional(),
  state: z.string().max(200).optional(),
  error: z.string().max(200).optional(),
});

/**
 * Where an MCP server's authorization server sends the person back after they signed in there.
 * Only their own sign-in under way is finished (its `state`, bound to their session); the browser
 * then goes to the Connections page of this site, never to an address the request names.
 */
export async function GET(request: Request, segment: { params: Promise<{ catalog: string; server: string }> }): Promise<Response> {
  const { catalog, server } = await segment.params;
  const back = new URL("/connections", publicOrigin());
  back.searchParams.set("catalog", catalog);
  back.searchParams.set("server", server);
  try {
    const person = await requestPerson(request);
    if (!person) throw new ToolshedError("unauthorized", "Sign in first, then connect again: the sign-in belongs to the person who started it.");
    await enforceRateLimit(person, "write");
    const answer = answerSchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
    if (!answer.success) throw new ToolshedError("bad_request", "The authorization server's answer is malformed.");
    await finishOAuthConnection(getDb(), person, catalog, server, answer.data);
    back.searchParams.set("connected", "1");
  } catch (error) {
    back.searchParams.set("failed", error instanceof ToolshedError ? error.message : "The sign-in could not be completed.");
  }
  return Response.redirect(back, 303);
}
