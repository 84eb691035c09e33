import "server-only";
import { carriesOAuthToken, gatewayChallenge, scopesAllowedFor } from "@/lib/auth/oauth";
import { publicOrigin } from "@/lib/auth/origin";
import { handle } from "@/lib/http";
import { authenticate, enforceRateLimit, requireCatalogAccess } from "./access";
import type { Caller } from "./mcp-gateway";
import { authenticateGatewayToken } from "./oauth";
import { observed } from "./observed";

/** Who calls a catalog's gateway: an OAuth access token's person (with its scopes), else as every route (API token, session). */
async function gatewayCaller(request: Request, catalogId: string): Promise<Caller> {
  if (!carriesOAuthToken(request.headers.get("authorization"))) {
    const principal = await authenticate(request);
    return { principal, access: await requireCatalogAccess(principal, catalogId, "read") };
  }
  const grant = await authenticateGatewayToken(request, catalogId);
  const access = await requireCatalogAccess(grant.principal, catalogId, "read");
  // The client gets no more than the person's role allows now, whatever it was granted then.
  const allowed = scopesAllowedFor(access);
  return { principal: grant.principal, access, scopes: grant.scopes.filter((scope) => allowed.includes(scope)) };
}

export interface GatewayRouteContext {
  request: Request;
  catalogId: string;
  caller: Caller;
}

/**
 * The route handler of a catalog's gateway (…/api/catalogs/{catalog}/mcp), an OAuth protected
 * resource: like catalogRoute("read"), and it also takes the OAuth access tokens issued for this
 * gateway (app/_services/oauth.ts). Its 401s say where its Protected Resource Metadata is
 * (`WWW-Authenticate: Bearer resource_metadata=…`, RFC 9728 §5.1), from which an MCP client
 * finds the authorization server; API tokens work as before.
 */
export function gatewayRoute(handler: (context: GatewayRouteContext) => Promise<Response>) {
  return observed(async (request: Request, segment: { params: Promise<{ catalog: string }> }) => {
    const catalogId = (await segment.params).catalog;
    const response = await handle(async () => {
      const caller = await gatewayCaller(request, catalogId);
      await enforceRateLimit(caller.principal, "read");
      return handler({ request, catalogId, caller });
    })();
    if (response.status === 401) response.headers.set("www-authenticate", gatewayChallenge(publicOrigin(), catalogId, request.headers.get("authorization")));
    return response;
  });
}
