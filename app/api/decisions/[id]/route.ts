import { requireDecisionAccess, signedInRoute } from "@/app/_services/access";
import { refuseOtherMethods } from "@/lib/http";

export const GET = signedInRoute<{ id: string }>(({ principal, params }) => Response.json({ decision: requireDecisionAccess(principal, params.id) }));

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods({ GET });
