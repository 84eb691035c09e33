import { beforeEach, describe, expect, it } from "vitest";
import { cachedCatalogStates, catalogState } from "@/app/_services/catalog-states";
import { catchUpAfterWrite, catchUpOnOthersWrites } from "@/app/_services/catalog-writes";
import { selectorRegistry } from "@/app/_services/selection";
import * as preselectRoute from "@/app/api/catalogs/[catalog]/preselect/route";
import * as toolRoute from "@/app/api/catalogs/[catalog]/tools/[name]/route";
import { announceCatalogChange } from "@/db/catalog-changes";
import { closeDb, type Db, openPostgres } from "@/db/client";
import { usesPostgres } from "@/db/dialect";
import { catalogVersion } from "@/db/queries/catalog-state";
import { createCatalog } from "@/db/queries/catalogs";
import { createCustomTool, updateTool } from "@/db/queries/tools";
import { catalogCorpus } from "@/lib/selection/candidates";
import { corpusIndexKey } from "@/lib/selection/local-selector";
import { urlOfFreshDatabase } from "../support/fresh-database";
import { jsonRequest, params, useFreshDatabase } from "./helpers";

const CATALOG = "catch-up";

let db: Db;

beforeEach(async () => {
  db = await useFreshDatabase();
  await createCatalog(db, { name: "Catch-up", id: CATALOG }, "test");
  // More tools than preselection's k, so that it ranks them.
  for (const [name, summary] of [
    ["weather_forecast", "Hourly weather forecast for a city."],
    ["calendar_create_event", "Create an event in a calendar."],
    ["email_send", "Send an email to recipients."],
    ["files_search", "Search files by name or content."],
  ]) {
    await createCustomTool(db, CATALOG, { name, summary, description: summary, inputSchema: { type: "object" } }, "test");
  }
});

/** Whether the local index of the catalog's current state is built (the state read as a request reads it). */
async function currentIndexBuilt(): Promise<boolean> {
  const state = await catalogState(db, CATALOG);
  return selectorRegistry().localIndexes.has(corpusIndexKey(catalogCorpus(state.catalogId, state.revision, state.tools)));
}

async function preselectOnce() {
  const response = await preselectRoute.POST(
    jsonRequest("POST", { model: "gpt-5", agent: "build", messages: [{ role: "user", content: "Will it rain in Oslo?" }], k: 2 }),
    params({ catalog: CATALOG }),
  );
  expect(response.status).toBe(200);
}

describe("after a write to a catalog", () => {
  it("the write's answer comes once the catalog's state and the index preselection ranks with are current", async () => {
    await preselectOnce();
    const edited = await toolRoute.PATCH(
      jsonRequest("PATCH", { summary: "Hourly forecast: rain, wind and temperature for a city." }),
      params({ catalog: CATALOG, name: "weather_forecast" }),
    );
    expect(edited.status).toBe(200);
    expect(await currentIndexBuilt()).toBe(true);
  });

  it("a write made another way leaves both for the next request, as before", async () => {
    await preselectOnce();
    await updateTool(db, CATALOG, "weather_forecast", { summary: "Hourly forecast: rain and wind." }, "test");
    expect(await currentIndexBuilt()).toBe(false);
    await catchUpAfterWrite(db, CATALOG);
    expect(await currentIndexBuilt()).toBe(true);
  });

  it("builds no index for a catalog that no request ranks with", async () => {
    // A catalog of its own: the indexes of the others live on between tests (one registry per process).
    const unused = "catch-up-unused";
    await createCatalog(db, { name: "Unused", id: unused }, "test");
    await createCustomTool(
      db,
      unused,
      { name: "files_search", summary: "Search files.", description: "Search files.", inputSchema: { type: "object" } },
      "test",
    );
    const edited = await toolRoute.PATCH(jsonRequest("PATCH", { summary: "Search files by name." }), params({ catalog: unused, name: "files_search" }));
    expect(edited.status).toBe(200);
    expect(selectorRegistry().localIndexes.hasLineage(unused)).toBe(false);
  });

  it("a catch-up that fails loses nothing: the write stays, and the next read catches up", async () => {
    await expect(catchUpAfterWrite(db, "no-such-catalog")).resolves.toBeUndefined();
    const version = await catalogVersion(db, CATALOG);
    await updateTool(db, CATALOG, "weather_forecast", { summary: "Forecasts, hour by hour." }, "test");
    expect(await catalogVersion(db, CATALOG)).not.toBe(version);
    expect((await catalogState(db, CATALOG)).tools.find((tool) => tool.name === "weather_forecast")?.summary).toBe("Forecasts, hour by hour.");
  });

  it("reads a changed catalog once for requests that ask at the same time", async () => {
    await catalogState(db, CATALOG);
    await updateTool(db, CATALOG, "email_send", { summary: "Send an email, with attachments." }, "test");
    const [first, second] = await Promise.all([catalogState(db, CATALOG), catalogState(db, CATALOG)]);
    expect(first).toBe(second);
    expect(first.tools.find((tool) => tool.name === "email_send")?.summary).toBe("Send an email, with attachments.");
  });

  it.skipIf(!usesPostgres())("another instance on the PostgreSQL database catches up as the write is announced, not on its next request", async () => {
    // Another instance: a handle of its own on the same database (its own pool and state cache).
    const other = openPostgres(urlOfFreshDatabase(db));
    const catchingUp = catchUpOnOthersWrites(other);
    try {
      await catchingUp.listening;
      expect(cachedCatalogStates(other)).toBe(0);
      const edited = await toolRoute.PATCH(
        jsonRequest("PATCH", { summary: "Forecasts, hour by hour." }),
        params({ catalog: CATALOG, name: "weather_forecast" }),
      );
      expect(edited.status).toBe(200);
      // Read on the notice: the other instance has the edited state before any request reaches it.
      await expect.poll(() => cachedCatalogStates(other)).toBe(1);
      expect((await catalogState(other, CATALOG)).tools.find((tool) => tool.name === "weather_forecast")?.summary).toBe("Forecasts, hour by hour.");
    } finally {
      await catchingUp.stop();
      await closeDb(other);
    }
  });

  it.skipIf(usesPostgres())("on SQLite there is nobody to tell: announcing and listening do nothing", async () => {
    await expect(announceCatalogChange(db, CATALOG)).resolves.toBeUndefined();
    const catchingUp = catchUpOnOthersWrites(db);
    await expect(catchingUp.listening).resolves.toBeUndefined();
    await catchingUp.stop();
  });
});
