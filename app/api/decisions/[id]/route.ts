import { requireDecisionAccess, signedInRoute } from "@/app/_services/access";

export const GET = signedInRoute<{ id: string }>(({ principal, params }) => Response.json({ decision: requireDecisionAccess(principal, params.id) }));
