import { catalogRoute } from "@/app/_services/access";
import { reportUsage } from "@/app/_services/learning";
import { getDb } from "@/db/client";
import { usageReportBody } from "@/lib/api-schemas";
import { principalKey } from "@/lib/auth/policy";
import { parseWith, readJsonBody, refuseOtherMethods } from "@/lib/http";

/** 1,000 events of 4,000 characters and their tool names. */
const BODY_LIMIT = 5 * 1024 * 1024;

/**
 * Reports which tools were used for which requests: the catalog's local selector learns from them
 * (app/_services/learning.ts). Tools the catalog does not have, cannot use, or that `model` and
 * `agent` may not see are ignored, each named with its event's index and the reason.
 */
export const POST = catalogRoute<{ catalog: string }>(
  "write",
  async ({ request, params, principal }) => {
    const body = parseWith(usageReportBody, await readJsonBody(request, BODY_LIMIT));
    return Response.json(await reportUsage(getDb(), params.catalog, principalKey(principal), body));
  },
  { limit: "write" },
);

export const { GET, PUT, PATCH, DELETE } = refuseOtherMethods({ POST });
