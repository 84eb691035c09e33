import { catalogRoute } from "@/app/_services/access";
import { catalogWriteRoute } from "@/app/_services/catalog-writes";
import { getDb } from "@/db/client";
import { deleteAgent, getAgent, saveAgent } from "@/db/queries/agents";
import { agentBody } from "@/lib/api-schemas";
import { parseWith, readJsonBody, refuseOtherMethods } from "@/lib/http";

type Params = { catalog: string; name: string };

export const GET = catalogRoute<Params>("read", async ({ params }) => Response.json({ agent: await getAgent(getDb(), params.catalog, params.name) }));

export const PUT = catalogWriteRoute<Params>("write", async ({ request, params, actor }) => {
  const agent = await saveAgent(getDb(), params.catalog, parseWith(agentBody, await readJsonBody(request)), actor, params.name);
  return Response.json({ agent });
});

export const DELETE = catalogWriteRoute<Params>("write", async ({ params, actor }) => {
  await deleteAgent(getDb(), params.catalog, params.name, actor);
  return new Response(null, { status: 204 });
});

export const { POST, PATCH } = refuseOtherMethods({ GET, PUT, DELETE });
