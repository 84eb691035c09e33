import { signedInRoute } from "@/app/_services/access";
import { requireMetricsReader } from "@/lib/auth/policy";
import { refuseOtherMethods } from "@/lib/http";
import { metricsExposition } from "@/lib/observability/metrics";

export const dynamic = "force-dynamic";

/** This instance's metrics in Prometheus text format: instance admins, `instance` and `metrics` tokens. */
export const GET = signedInRoute(
  async ({ principal }) => {
    requireMetricsReader(principal);
    const { contentType, body } = await metricsExposition();
    return new Response(body, { headers: { "content-type": contentType, "cache-control": "no-store" } });
  },
  { limit: "read" },
);

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods({ GET });
