import { z } from "zod";
import { enforceRateLimit, requestPerson } from "@/app/_services/access";
import { getDb } from "@/db/client";
import { publicOrigin } from "@/lib/auth/origin";
import { type ConnectionFailure, finishOAuthConnection } from "@/app/_services/mcp-connections";
import { ToolshedError } from "@/lib/errors";
import { log } from "@/lib/observability/log";

const answerSchema = z.object({
  code: z.string().max(4_000).optional(),
  state: z.string().max(200).optional(),
  error: z.string().max(200).optional(),
  iss: z.string().max(2_000).optional(),
});

/** Why a sign-in did not complete, as the Connections page names it (CONNECTION_FAILURES). */
function failureOf(error: unknown): ConnectionFailure {
  if (!(error instanceof ToolshedError)) return "signin";
  if (error.code === "unauthorized") return "session";
  if (error.code === "forbidden") return "mismatch";
  return error.code === "not_found" ? "server" : "signin";
}

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
    // Said by a fixed word the page turns into its sentence: no text from the request or the upstream lands on the page.
    log.warn({ err: error }, `The sign-in at MCP server ${catalog}/${server} did not complete:`);
    back.searchParams.set("failed", failureOf(error));
  }
  return Response.redirect(back, 303);
}
