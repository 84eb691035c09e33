import { requireTeamAccess, signedInRoute, type RouteContext } from "@/app/_services/access";
import type { Access } from "@/lib/auth/policy";

/** A route handler under /api/teams/{team}: the caller needs `need` in that team (404 when not part of it). */
export function teamRoute<P extends { team: string }>(need: Access, handler: (context: RouteContext<P>) => Promise<Response> | Response) {
  return signedInRoute<P>((context) => {
    requireTeamAccess(context.principal, context.params.team, need);
    return handler(context);
  });
}

export const noContent = () => new Response(null, { status: 204 });
