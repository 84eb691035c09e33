import { catalogRoute } from "@/app/_services/access";
import { mcpHealthFor } from "@/app/_services/mcp-views";
import { getDb } from "@/db/client";
import { listMcpHealthChanges } from "@/db/queries/mcp-servers";
import { refuseOtherMethods } from "@/lib/http";

/** The server's kept changes of health, newest first; the causes that quote its errors for admins only (see mcpHealthFor). */
export const GET = catalogRoute<{ catalog: string; name: string }>("read", async ({ params, access }) =>
  Response.json({ changes: mcpHealthFor(await listMcpHealthChanges(getDb(), params.catalog, params.name), access) }),
);

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods({ GET });
