import { catalogRoute } from "@/app/_services/access";
import { catalogWriteRoute } from "@/app/_services/catalog-writes";
import { getDb } from "@/db/client";
import { listAgents, saveAgent } from "@/db/queries/agents";
import { agentBody } from "@/lib/api-schemas";
import { parseWith, readJsonBody, refuseOtherMethods } from "@/lib/http";

type Params = { catalog: string };

export const GET = catalogRoute<Params>("read", async ({ params }) => Response.json({ agents: await listAgents(getDb(), params.catalog) }));

export const POST = catalogWriteRoute<Params>("write", async ({ request, params, actor }) => {
  const agent = await saveAgent(getDb(), params.catalog, parseWith(agentBody, await readJsonBody(request)), actor);
  return Response.json({ agent }, { status: 201 });
});

export const { PUT, PATCH, DELETE } = refuseOtherMethods({ GET, POST });
