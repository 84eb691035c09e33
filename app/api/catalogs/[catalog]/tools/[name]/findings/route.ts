import { catalogRoute } from "@/app/_services/access";
import { toolFindings } from "@/app/_services/poisoning";
import { getDb } from "@/db/client";
import { refuseOtherMethods } from "@/lib/http";

/** What the poisoning check (lib/tools/poisoning.ts) finds in a tool's text: kind, severity, field, span and excerpt of each finding. */
export const GET = catalogRoute<{ catalog: string; name: string }>("read", async ({ params }) => {
  return Response.json({ findings: await toolFindings(getDb(), params.catalog, params.name) });
});

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods({ GET });
