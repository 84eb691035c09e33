"use server";

import { revalidatePath } from "next/cache";
import { actionPrincipal, authorizeCatalogAction, enforceRateLimit, requireCatalogAccess, requireTeamAccess } from "@/app/_services/access";
import { cloneCatalogFor } from "@/app/_services/catalog-code";
import { syncLocalSources } from "@/app/_services/local-sources";
import { removeCatalog } from "@/app/_services/sources";
import { getDb } from "@/db/client";
import { createCatalog, updateCatalog } from "@/db/queries/catalogs";
import { DEFAULT_TEAM } from "@/db/queries/teams";
import { runAction } from "@/lib/action-result";
import { actorOf } from "@/lib/auth/policy";
import { cloneBody, createCatalogBody, updateCatalogBody } from "@/lib/api-schemas";
import { parseWith } from "@/lib/http";

export async function createCatalogAction(input: unknown) {
  return runAction(async () => {
    const principal = await actionPrincipal();
    const body = parseWith(createCatalogBody, input);
    const teamId = body.team ?? DEFAULT_TEAM;
    requireTeamAccess(principal, teamId, "write");
    await enforceRateLimit(principal, "write");
    const db = getDb();
    const catalog = await createCatalog(db, { name: body.name, description: body.description, id: body.id, teamId }, actorOf(principal));
    await syncLocalSources(db, catalog.id);
    revalidatePath("/");
    return catalog;
  });
}

export async function updateCatalogAction(id: string, input: unknown) {
  return runAction(async () => {
    const { actor } = await authorizeCatalogAction(id, "write");
    const catalog = await updateCatalog(getDb(), id, parseWith(updateCatalogBody, input), actor);
    revalidatePath("/", "layout");
    return catalog;
  });
}

export async function deleteCatalogAction(id: string) {
  return runAction(async () => {
    await authorizeCatalogAction(id, "admin");
    await removeCatalog(getDb(), id);
    revalidatePath("/");
    return { id };
  });
}

/** Clones a catalog into a team the person is admin of, as POST …/clone does. */
export async function cloneCatalogAction(id: string, input: unknown) {
  return runAction(async () => {
    const principal = await actionPrincipal();
    await requireCatalogAccess(principal, id, "read");
    await enforceRateLimit(principal, "write");
    const catalog = await cloneCatalogFor(getDb(), id, parseWith(cloneBody, input), { principal, actor: actorOf(principal) });
    revalidatePath("/");
    return catalog;
  });
}
