import { playTurn } from "@/app/_services/playground";
import { getDb } from "@/db/client";
import { playgroundBody } from "@/lib/api-schemas";
import { handle, parseWith, readJsonBody } from "@/lib/http";

type Context = { params: Promise<{ catalog: string }> };

const BODY_LIMIT = 1024 * 1024;

/** One playground exchange, streamed as NDJSON events (see lib/playground/events.ts). */
export const POST = handle(async (request: Request, { params }: Context) => {
  const { catalog } = await params;
  const body = parseWith(playgroundBody, await readJsonBody(request, BODY_LIMIT));
  const stream = await playTurn(getDb(), catalog, body);
  return new Response(stream, { headers: { "content-type": "application/x-ndjson; charset=utf-8", "cache-control": "no-store" } });
});
