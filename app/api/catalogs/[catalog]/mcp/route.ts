import { gatewayRoute } from "@/app/_services/gateway-access";
import { handleGatewayRequest } from "@/app/_services/mcp-gateway";
import { mcpGatewayQuery } from "@/lib/api-schemas";
import { withOpenedEventStream } from "@/lib/gateway/event-stream";
import { parseWith, refuseOtherMethods } from "@/lib/http";

/**
 * The catalog's MCP gateway (Streamable HTTP): POST carries JSON-RPC messages, GET opens the
 * session's stream of server messages, DELETE ends the session. A session is opened by an
 * initialize POST to `…/mcp?model=…&agent=…` and serves that model and agent; every request
 * sends the credentials of whoever opened it: an API token or an OAuth access token issued for
 * this gateway (`Authorization: Bearer`; app/_services/gateway-access.ts). Its event streams start
 * with a comment, so that their headers leave at once, and the GET stream's connection closes with
 * it (lib/gateway/event-stream.ts).
 */
const gateway = gatewayRoute(async ({ request, catalogId, caller }) =>
  withOpenedEventStream(
    await handleGatewayRequest(request, catalogId, caller, () => {
      const query = new URL(request.url).searchParams;
      const fields: Record<string, unknown> = Object.fromEntries(query);
      if (query.has("flags")) fields.flags = query.getAll("flags");
      return parseWith(mcpGatewayQuery, fields);
    }),
    { closesConnection: request.method === "GET" },
  ),
);

export const GET = gateway;
export const POST = gateway;
export const DELETE = gateway;

export const { PUT, PATCH } = refuseOtherMethods({ GET, POST, DELETE });
