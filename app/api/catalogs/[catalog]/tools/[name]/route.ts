import { catalogRoute } from "@/app/_services/access";
import { catalogWriteRoute } from "@/app/_services/catalog-writes";
import { getDb } from "@/db/client";
import { deleteTool, getTool, updateTool } from "@/db/queries/tools";
import { toolBody } from "@/lib/api-schemas";
import { parseWith, readJsonBody, refuseOtherMethods } from "@/lib/http";

type Params = { catalog: string; name: string };

export const GET = catalogRoute<Params>("read", async ({ params }) => Response.json({ tool: await getTool(getDb(), params.catalog, params.name) }));

export const PATCH = catalogWriteRoute<Params>("write", async ({ request, params, actor }) => {
  const patch = parseWith(toolBody, await readJsonBody(request));
  return Response.json({ tool: await updateTool(getDb(), params.catalog, params.name, patch, actor) });
});

/** Deletes a custom tool with every reference to it; the answer lists those references. */
export const DELETE = catalogWriteRoute<Params>("write", async ({ params, actor }) =>
  Response.json(await deleteTool(getDb(), params.catalog, params.name, actor)),
);

export const { POST, PUT } = refuseOtherMethods({ GET, PATCH, DELETE });
