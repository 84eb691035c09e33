import { catalogRoute } from "@/app/_services/access";
import { getDb } from "@/db/client";
import { createCustomTool, listTools } from "@/db/queries/tools";
import { toolBody } from "@/lib/api-schemas";
import { parseWith, readJsonBody } from "@/lib/http";

type Params = { catalog: string };

export const GET = catalogRoute<Params>("read", ({ params }) => Response.json({ tools: listTools(getDb(), params.catalog) }));

export const POST = catalogRoute<Params>("write", async ({ request, params, actor }) => {
  const body = parseWith(toolBody, await readJsonBody(request));
  const tool = createCustomTool(getDb(), params.catalog, body, actor);
  return Response.json({ tool }, { status: 201 });
});
