import { refuseOtherMethods } from "@/lib/http";
import { openApiDocument } from "@/lib/openapi";

/**
 * The API's description, public like any published API reference: it is made from the schemas in
 * code and holds no catalog data, no configuration and no secrets, so it needs no caller.
 */
export function GET() {
  return Response.json(openApiDocument(), { headers: { "cache-control": "public, max-age=300" } });
}

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods({ GET });
