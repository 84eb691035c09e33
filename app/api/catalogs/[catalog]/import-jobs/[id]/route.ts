import { catalogRoute } from "@/app/_services/access";
import { getImportJob } from "@/app/_services/imports";
import { getDb } from "@/db/client";
import { refuseOtherMethods } from "@/lib/http";

/**
 * An import job of this catalog: its status, progress, and result or error. Polled, and a done
 * job's result can name 50,000 tools: never cached, and not compressed on the server's main thread.
 */
export const GET = catalogRoute<{ catalog: string; id: string }>("read", async ({ params }) =>
  Response.json({ job: await getImportJob(getDb(), params.catalog, params.id) }, { headers: { "cache-control": "no-store, no-transform" } }),
);

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods({ GET });
