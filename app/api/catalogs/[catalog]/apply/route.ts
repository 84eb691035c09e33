import { catalogWriteRoute } from "@/app/_services/catalog-writes";
import { applyCatalogFile, readCatalogFile } from "@/app/_services/catalog-code";
import { getDb } from "@/db/client";
import { applyQuery } from "@/lib/api-schemas";
import { parseWith, readBodyText, refuseOtherMethods } from "@/lib/http";

/** A catalog file of 50,000 tools with full schemas is about 30 MiB, as an import's. */
const APPLY_BODY_LIMIT = 64 * 1024 * 1024;

/** Applies a catalog file (YAML or JSON, as its content type says) → `{ plan }`; with `?dryRun=1` only plans it. */
export const POST = catalogWriteRoute<{ catalog: string }>("write", async ({ request, params, principal, access, actor }) => {
  const query = parseWith(applyQuery, Object.fromEntries(new URL(request.url).searchParams));
  const value = readCatalogFile(await readBodyText(request, APPLY_BODY_LIMIT), request.headers.get("content-type"));
  const plan = await applyCatalogFile(
    getDb(),
    params.catalog,
    value,
    { dryRun: query.dryRun !== undefined, prune: query.prune !== undefined },
    {
      principal,
      access,
      actor,
    },
  );
  return Response.json({ plan });
});

export const { GET, PUT, PATCH, DELETE } = refuseOtherMethods({ POST });
