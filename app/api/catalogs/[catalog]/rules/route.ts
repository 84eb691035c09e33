import { getDb } from "@/db/client";
import { getRules, saveModelRules, saveOverrides, saveProviders, saveSearchService } from "@/db/queries/rules";
import { rulesBody } from "@/lib/api-schemas";
import { actorOf, handle, parseWith, readJsonBody } from "@/lib/http";

type Context = { params: Promise<{ catalog: string }> };

export const GET = handle(async (_request: Request, { params }: Context) => {
  const { catalog } = await params;
  return Response.json({ rules: getRules(getDb(), catalog) });
});

/** Replaces each part of the rules the body names; every part is validated before any is written. */
export const PUT = handle(async (request: Request, { params }: Context) => {
  const { catalog } = await params;
  const body = parseWith(rulesBody, await readJsonBody(request));
  const db = getDb();
  const actor = actorOf(request);
  db.transaction((tx) => {
    const txDb = tx as unknown as typeof db;
    if (body.modelRules) saveModelRules(txDb, catalog, body.modelRules, actor);
    if (body.providers) saveProviders(txDb, catalog, body.providers, actor);
    if (body.overrides) saveOverrides(txDb, catalog, body.overrides, actor);
    if (body.searchServiceConfigured !== undefined) saveSearchService(txDb, catalog, body.searchServiceConfigured, actor);
  });
  return Response.json({ rules: getRules(db, catalog) });
});
