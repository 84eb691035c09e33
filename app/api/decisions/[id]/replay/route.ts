import { replayBody, replayDecisionById } from "@/app/_services/replay";
import { getDb } from "@/db/client";
import { handle, parseWith, readJsonBody } from "@/lib/http";

type Context = { params: Promise<{ id: string }> };

const BODY_LIMIT = 16 * 1024;

/** The body is optional: none (or an empty one) replays with the decision's own selector. */
async function optionalBody(request: Request): Promise<unknown> {
  const declared = request.headers.get("content-length");
  if (request.body === null || declared === "0") return {};
  if (Number(declared) > BODY_LIMIT) return readJsonBody(request, BODY_LIMIT);
  const text = await request.clone().text();
  if (!text.trim()) return {};
  return readJsonBody(request, BODY_LIMIT);
}

export const POST = handle(async (request: Request, { params }: Context) => {
  const { id } = await params;
  const body = parseWith(replayBody, await optionalBody(request));
  return Response.json(await replayDecisionById(getDb(), id, body));
});
