import { requireDecisionAccess, signedInRoute } from "@/app/_services/access";
import { refuseOtherMethods } from "@/lib/http";

export const GET = signedInRoute<{ id: string }>(async ({ principal, params }) =>
  Response.json({ decision: await requireDecisionAccess(principal, params.id) }),
);

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods({ GET });
