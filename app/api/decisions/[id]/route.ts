import { getDb } from "@/db/client";
import { getDecision } from "@/db/queries/decisions";
import { handle } from "@/lib/http";

type Context = { params: Promise<{ id: string }> };

export const GET = handle(async (_request: Request, { params }: Context) => {
  const { id } = await params;
  return Response.json({ decision: getDecision(getDb(), id) });
});
