import { beforeEach, describe, expect, it } from "vitest";
import * as preselectRoute from "@/app/api/catalogs/[catalog]/preselect/route";
import * as toolSearchRoute from "@/app/api/catalogs/[catalog]/tool-search/route";
import * as usageRoute from "@/app/api/catalogs/[catalog]/usage-stats/route";
import { writeTransaction, type Db } from "@/db/client";
import { createCatalog } from "@/db/queries/catalogs";
import { syncSourceTools } from "@/db/queries/source-tools";
import { createCustomTool } from "@/db/queries/tools";
import { addUsage } from "@/db/queries/usage-rollups";
import { incrementsOf } from "@/lib/usage/usage-buffer";
import { apiRequest, createTestToken, jsonRequest, params, useFreshDatabase } from "./helpers";

const CATALOG = "usage";
const catalog = params({ catalog: CATALOG });
const HOUR = 60 * 60 * 1000;

let db: Db;

beforeEach(async () => {
  db = await useFreshDatabase();
  await createCatalog(db, { name: "Usage", id: CATALOG }, "test");
  for (const [name, summary] of [
    ["weather_forecast", "Hourly weather forecast for a city, with temperature and rain."],
    ["send_invoice", "Send an invoice to a customer by email."],
  ])
    await createCustomTool(db, CATALOG, { name, summary, description: summary, inputSchema: { type: "object" } }, "test");
  const search = {
    name: "notes__search",
    summary: "Search notes.",
    description: "Search notes.",
    inputSchema: { type: "object" as const },
    tags: [],
    meta: { mcpName: "search" },
  };
  await syncSourceTools(db, CATALOG, [{ source: "mcp", sourceRef: "notes", drafts: [search] }], "sync");
});

async function usage(query = "", headers: Record<string, string> = {}) {
  const response = await usageRoute.GET(apiRequest(`/api/catalogs/${CATALOG}/usage-stats${query}`, { headers }), catalog);
  return { status: response.status, body: await response.json() };
}

describe("GET /api/catalogs/{c}/usage-stats", () => {
  it("counts what preselection offered and what ToolSearch had to find, from the decisions the routes record", async () => {
    const preselected = await preselectRoute.POST(
      jsonRequest("POST", { model: "gpt-5", agent: "build", messages: [{ role: "user", content: "Weather forecast for Paris?" }], k: 1, selector: "local" }),
      catalog,
    );
    const { conversationId } = await preselected.json();
    const searched = await toolSearchRoute.POST(
      jsonRequest("POST", { model: "gpt-5", agent: "build", conversationId, query: "select:send_invoice,weather_forecast" }),
      catalog,
    );
    expect(searched.status).toBe(200);

    const { status, body } = await usage();
    expect(status).toBe(200);
    expect(body.window).toBe("24h");
    const tool = (name: string) => body.tools.find((figures: { name: string }) => figures.name === name);
    expect(tool("weather_forecast")).toMatchObject({ calls: 0, offered: 1, foundBySearch: 0, p50Ms: null });
    expect(tool("send_invoice")).toMatchObject({ offered: 0, foundBySearch: 1 });
    expect(body.models).toEqual([expect.objectContaining({ name: "gpt-5", offered: 1, foundBySearch: 1 })]);
    // Custom tools run in the agent: Toolshed sees no call of theirs, so none is "never called".
    expect(body.neverCalled).toEqual(["notes__search"]);
  });

  it("covers the window asked for", async () => {
    const now = Date.now();
    const key = { catalogId: CATALOG, agent: "build", model: "gpt-5" };
    await writeTransaction(db, async (tx) => {
      await addUsage(tx, incrementsOf(key, [{ tool: "notes__search", latencyBucket: 30, counts: { calls: 1 } }], now));
      await addUsage(tx, incrementsOf(key, [{ tool: "notes__search", latencyBucket: 30, counts: { calls: 2 } }], now - 5 * HOUR));
      await addUsage(tx, incrementsOf(key, [{ tool: "notes__search", latencyBucket: 30, counts: { calls: 4 } }], now - 3 * 24 * HOUR));
      await addUsage(tx, incrementsOf(key, [{ tool: "notes__search", latencyBucket: 30, counts: { calls: 8, timeouts: 8 } }], now - 20 * 24 * HOUR));
    });
    const calls = async (window: string) => (await usage(`?window=${window}`)).body.tools.find((tool: { name: string }) => tool.name === "notes__search");
    expect(await calls("1h")).toMatchObject({ calls: 1, errors: 0 });
    expect(await calls("24h")).toMatchObject({ calls: 3 });
    expect(await calls("7d")).toMatchObject({ calls: 7 });
    expect(await calls("30d")).toMatchObject({ calls: 15, errors: 8, errorsByKind: { refused: 0, timeout: 8, upstream: 0 } });
    // Called 20 days ago: not "never called in 30 days", whichever window is shown.
    expect((await usage("?window=30d")).body.neverCalled).toEqual([]);
    expect((await usage("?window=1h")).body.neverCalled).toEqual([]);
  });

  it("is readable by viewers, checks its window, and knows no other catalog", async () => {
    const viewer = { authorization: `Bearer ${await createTestToken(db, "read", "viewer")}` };
    expect((await usage("?window=7d", viewer)).status).toBe(200);
    expect((await usage("?window=2d")).status).toBe(400);
    const missing = await usageRoute.GET(apiRequest("/api/catalogs/nope/usage-stats"), params({ catalog: "nope" }));
    expect(missing.status).toBe(404);
  });
});
