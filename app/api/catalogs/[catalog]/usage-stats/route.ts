import { catalogRoute } from "@/app/_services/access";
import { readUsageStats } from "@/app/_services/usage";
import { getDb } from "@/db/client";
import { usageStatsQuery } from "@/lib/api-schemas";
import { parseWith, refuseOtherMethods } from "@/lib/http";

/** Usage per tool, MCP server, agent and model over `?window=1h|24h|7d|30d` (24h by default), from the hourly rollups. */
export const GET = catalogRoute<{ catalog: string }>("read", async ({ request, params }) => {
  const query = parseWith(usageStatsQuery, Object.fromEntries(new URL(request.url).searchParams));
  return Response.json(await readUsageStats(getDb(), params.catalog, query.window ?? "24h"));
});

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods({ GET });
