import { catalogRoute } from "@/app/_services/access";
import { reloadLocalSourcesEverywhere } from "@/app/_services/local-sources";
import { getDb } from "@/db/client";
import { refuseOtherMethods } from "@/lib/http";

/** Instance admins (and admins of this catalog's team): reads the plugin, skill and agent folders again and updates every catalog's tools from them. */
export const POST = catalogRoute<{ catalog: string }>("admin", async ({ principal }) => {
  const local = await reloadLocalSourcesEverywhere(getDb(), principal);
  return Response.json({ loadedAt: local.loadedAt, errors: local.errors });
});

export const { GET, PUT, PATCH, DELETE } = refuseOtherMethods({ POST });
