import { gatewayResourceMetadata } from "@/app/_services/oauth";
import { observed } from "@/app/_services/observed";
import { handle, refuseOtherMethods } from "@/lib/http";

/**
 * The Protected Resource Metadata (RFC 9728) of a catalog's gateway, public: where MCP clients
 * learn which authorization server issues its tokens and which scopes it knows. Served at
 * `/.well-known/oauth-protected-resource/api/catalogs/{catalog}/mcp` through a rewrite
 * (next.config.mjs: the app router serves no dot folder).
 */
export const GET = observed(
  handle(async (_request: Request, segment: { params: Promise<{ catalog: string }> }) => gatewayResourceMetadata((await segment.params).catalog)),
);

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods({ GET });
