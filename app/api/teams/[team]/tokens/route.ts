import { getDb } from "@/db/client";
import { createApiToken, listApiTokens } from "@/db/queries/api-tokens";
import { parseWith, readJsonBody, refuseOtherMethods } from "@/lib/http";
import { apiTokenBody } from "@/lib/team-schemas";
import { teamRoute } from "../../team-route";

type Params = { team: string };

export const GET = teamRoute<Params>("admin", async ({ params }) => Response.json({ tokens: await listApiTokens(getDb(), params.team) }));

/** The secret is in this response only; the database keeps its hash. */
export const POST = teamRoute<Params>("admin", async ({ request, params, actor }) => {
  const body = parseWith(apiTokenBody, await readJsonBody(request));
  return Response.json(await createApiToken(getDb(), params.team, body, actor), { status: 201 });
});

export const { PUT, PATCH, DELETE } = refuseOtherMethods({ GET, POST });
