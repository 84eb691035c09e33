import { catalogWriteRoute } from "@/app/_services/catalog-writes";
import { previewImport, readImportBody, startImport } from "@/app/_services/imports";
import { importServers, mcpClientConfigOf, previewServerImport } from "@/app/_services/server-imports";
import { getDb } from "@/db/client";
import { importQuery } from "@/lib/api-schemas";
import { parseWith, refuseOtherMethods } from "@/lib/http";

/** A 50,000-tool import with full schemas is about 30 MiB. */
const IMPORT_BODY_LIMIT = 64 * 1024 * 1024;

/**
 * The body goes to the import worker as bytes: decoding, parsing, validation and the write all
 * happen off this thread. Up to SYNC_IMPORT_MAX_TOOLS tools → 200 with the result; more → 202 with
 * the job. With `?dryRun=1`: 200 with `{ preview }`, what the import would do, however large.
 * An MCP client configuration (a small file) adds its servers instead, as POST …/mcp-servers does
 * each: team admins only.
 */
export const POST = catalogWriteRoute<{ catalog: string }>("write", async ({ request, params, actor, principal }) => {
  const { dryRun } = parseWith(importQuery, Object.fromEntries(new URL(request.url).searchParams));
  const bytes = await readImportBody(request, IMPORT_BODY_LIMIT);
  const servers = mcpClientConfigOf(bytes);
  if (servers && dryRun) return Response.json({ preview: await previewServerImport(getDb(), params.catalog, servers, principal) });
  if (servers) return Response.json(await importServers(getDb(), params.catalog, servers, principal), { status: 201 });
  if (dryRun) return Response.json({ preview: await previewImport(getDb(), params.catalog, { bytes }) });
  const started = await startImport(getDb(), params.catalog, { bytes }, actor);
  if ("result" in started) return Response.json(started.result);
  return Response.json({ job: started.job }, { status: 202, headers: { location: started.job.url } });
});

export const { GET, PUT, PATCH, DELETE } = refuseOtherMethods({ POST });
