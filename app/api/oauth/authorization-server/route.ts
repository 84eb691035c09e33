import { authorizationServerMetadata } from "@/app/_services/oauth";
import { observed } from "@/app/_services/observed";
import { handle, refuseOtherMethods } from "@/lib/http";

/**
 * The authorization server's metadata (RFC 8414), public. Next's app router serves no folder whose
 * name starts with a dot, so `/.well-known/oauth-authorization-server` and its issuer-path form
 * (`…/api/auth`) reach this route through rewrites (next.config.mjs).
 */
export const GET = observed(handle(authorizationServerMetadata));

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods({ GET });
