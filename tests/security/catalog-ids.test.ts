import { beforeEach, describe, expect, it } from "vitest";
import * as catalogRoute from "@/app/api/catalogs/[catalog]/route";
import * as catalogsRoute from "@/app/api/catalogs/route";
import type { Db } from "@/db/client";
import { createCatalog, findCatalog } from "@/db/queries/catalogs";
import { teams } from "@/db/tables";
import { CATALOG_ID_PATTERN } from "@/lib/catalogs/slug";
import { jsonRequest, params, useFreshDatabase } from "../api/helpers";

/**
 * Issue 21, item 8: catalog ids are one namespace across teams, so what POST /api/catalogs answers
 * must not tell a caller that another team has a catalog of that id, nor whose it is.
 */

let db: Db;
const OTHER_TEAMS_ID = "secret-project";
const LONG_NAME = "An exceedingly long catalog name that fills every character of an id";

beforeEach(async () => {
  db = await useFreshDatabase();
  await db.insert(teams).values({ id: "rivals", name: "Rivals" });
  await createCatalog(db, { name: "Secret Project", teamId: "rivals" }, "rivals");
  await createCatalog(db, { name: LONG_NAME, teamId: "rivals" }, "rivals");
  // The caller (team "default"'s admin token) has one of its own.
  expect((await catalogsRoute.POST(jsonRequest("POST", { name: "Mine" }))).status).toBe(201);
});

const create = async (body: Record<string, string>) => {
  const response = await catalogsRoute.POST(jsonRequest("POST", body));
  return { status: response.status, body: await response.json() };
};

describe("POST /api/catalogs with an id that is taken", () => {
  it("answers the same 409 in the same words whether the id is another team's or the caller's own", async () => {
    const others = await create({ name: "Anything", id: OTHER_TEAMS_ID });
    const own = await create({ name: "Anything", id: "mine" });
    expect(others.status).toBe(409);
    expect(own.status).toBe(409);
    expect(others.body).toEqual({ error: { code: "conflict", message: `The id "${OTHER_TEAMS_ID}" is not available: choose another.`, field: "id" } });
    expect(own.body).toEqual({ error: { code: "conflict", message: 'The id "mine" is not available: choose another.', field: "id" } });
  });

  it("gives a name whose id is taken a free id with a random suffix, leaving the other team's catalog alone", async () => {
    const created = await create({ name: "Secret Project" });
    expect(created.status).toBe(201);
    expect(created.body.catalog).toMatchObject({ teamId: "default", name: "Secret Project" });
    expect(created.body.catalog.id).toMatch(/^secret-project-[0-9a-f]{6}$/);
    expect(await findCatalog(db, OTHER_TEAMS_ID)).toMatchObject({ teamId: "rivals", name: "Secret Project" });

    const long = await create({ name: LONG_NAME });
    expect(long.status).toBe(201);
    expect(long.body.catalog.id).toMatch(CATALOG_ID_PATTERN);
    expect(long.body.catalog.id).toMatch(/-[0-9a-f]{6}$/);
  });

  it("answers another team's catalog as it answers one that does not exist", async () => {
    const read = async (catalog: string) => {
      const response = await catalogRoute.GET(jsonRequest("GET"), params({ catalog }));
      return { status: response.status, message: ((await response.json()).error.message as string).replace(catalog, "…") };
    };
    expect(await read(OTHER_TEAMS_ID)).toEqual(await read("no-such-catalog"));
  });
});
