import { beforeEach, describe, expect, it } from "vitest";
import * as importRoute from "@/app/api/catalogs/[catalog]/import/route";
import * as toolRoute from "@/app/api/catalogs/[catalog]/tools/[name]/route";
import * as toolsRoute from "@/app/api/catalogs/[catalog]/tools/route";
import * as catalogsRoute from "@/app/api/catalogs/route";
import * as catalogRoute from "@/app/api/catalogs/[catalog]/route";
import type { Db } from "@/db/client";
import { listToolPage } from "@/db/queries/tool-pages";
import { catalogs, tools } from "@/db/tables";
import { apiRequest, jsonRequest, params, useFreshDatabase } from "./helpers";

const team = params({ catalog: "team" });
const BUILTINS = 15;

interface Page {
  tools: { name: string; summary: string; source: string; enabled: boolean; tags: string[] }[];
  total: number;
  nextCursor?: string;
  facets: { sources: { source: string; count: number }[]; tags: { tag: string; count: number }[]; catalogTotal: number };
  revision: number;
}

async function page(query: string, catalog = team): Promise<Page> {
  const response = await toolsRoute.GET(apiRequest(`/api/catalogs/team/tools?${query}`), catalog);
  expect(response.status).toBe(200);
  return response.json();
}

const custom = (name: string, summary: string, tags: string[] = [], description = "") => ({
  name,
  summary,
  description: description || summary,
  inputSchema: { type: "object", properties: { id: { type: "string" } } },
  tags,
});

async function importTools(list: ReturnType<typeof custom>[]) {
  const response = await importRoute.POST(jsonRequest("POST", { format: "toolshed.catalog", version: 1, tools: list }), team);
  expect(response.status, JSON.stringify(await response.clone().json())).toBe(200);
}

let db: Db;
beforeEach(async () => {
  db = await useFreshDatabase();
  expect((await catalogsRoute.POST(jsonRequest("POST", { name: "Team" }))).status).toBe(201);
});

describe("GET /api/catalogs/{c}/tools with page parameters", () => {
  it("without any page parameter still returns every tool, with no paging fields", async () => {
    const body = await (await toolsRoute.GET(apiRequest("/api/catalogs/team/tools?unrelated=1"), team)).json();
    expect(Object.keys(body)).toEqual(["tools"]);
    expect(body.tools).toHaveLength(BUILTINS);
  });

  it("pages by cursor through every tool once, in registration order, with the total", async () => {
    await importTools(Array.from({ length: 40 }, (_, i) => custom(`tool_${String(i).padStart(2, "0")}`, `Tool number ${i}.`)));
    const all = (await (await toolsRoute.GET(apiRequest("/api/catalogs/team/tools"), team)).json()).tools.map((tool: { name: string }) => tool.name);
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const body = await page(`limit=12${cursor ? `&cursor=${cursor}` : ""}`);
      expect(body.total).toBe(BUILTINS + 40);
      expect(body.tools.length).toBeLessThanOrEqual(12);
      seen.push(...body.tools.map((tool) => tool.name));
      cursor = body.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(Math.ceil((BUILTINS + 40) / 12));
    expect(seen).toEqual(all);
    const third = await page("limit=12&offset=24");
    expect(third.tools.map((tool) => tool.name)).toEqual(all.slice(24, 36));
    expect((await page("offset=1000")).tools).toEqual([]);
  });

  it("searches name, summary and tags (every word, any case), not the description", async () => {
    await importTools([
      custom("invoice_lookup", "Find an invoice by number and return its Status.", ["billing"]),
      custom("refund_issue", "Refund a payment.", ["billing", "payments"]),
      custom("weather", "Get the forecast.", [], "Mentions invoice only in its description."),
    ]);
    expect((await page("q=invoice")).tools.map((tool) => tool.name)).toEqual(["invoice_lookup"]);
    expect((await page("q=INVOICE%20status")).tools.map((tool) => tool.name)).toEqual(["invoice_lookup"]);
    expect((await page("q=BILLING")).tools.map((tool) => tool.name)).toEqual(["invoice_lookup", "refund_issue"]);
    expect((await page("q=payments%20refund")).total).toBe(1);
    expect((await page("q=forecast%20invoice")).total).toBe(0);
    expect((await page("q=_iss")).tools.map((tool) => tool.name)).toEqual(["refund_issue"]);
    expect((await page("q=%20%20")).total).toBe(BUILTINS + 3);
  });

  it("filters by source, state and tag, and gives facets of the whole catalog", async () => {
    await importTools([custom("a_one", "First.", ["alpha", "shared"]), custom("a_two", "Second.", ["shared"]), custom("b_three", "Third.", ["beta"])]);
    await toolRoute.PATCH(jsonRequest("PATCH", { enabled: false }), params({ catalog: "team", name: "a_two" }));
    await toolRoute.PATCH(jsonRequest("PATCH", { enabled: false }), params({ catalog: "team", name: "bash" }));

    expect((await page("source=custom")).tools.map((tool) => tool.name)).toEqual(["a_one", "a_two", "b_three"]);
    expect((await page("state=disabled")).tools.map((tool) => tool.name)).toEqual(["bash", "a_two"]);
    expect((await page("state=enabled&source=custom")).tools.map((tool) => tool.name)).toEqual(["a_one", "b_three"]);
    expect((await page("state=all&source=builtin")).total).toBe(BUILTINS);
    expect((await page("tag=shared")).tools.map((tool) => tool.name)).toEqual(["a_one", "a_two"]);
    expect((await page("tag=shar")).total).toBe(0);

    const { facets } = await page("q=nothing-matches-this");
    expect(facets.catalogTotal).toBe(BUILTINS + 3);
    expect(facets.sources).toEqual(
      expect.arrayContaining([
        { source: "builtin", count: BUILTINS },
        { source: "custom", count: 3 },
      ]),
    );
    expect(facets.tags).toEqual(
      expect.arrayContaining([
        { tag: "shared", count: 2 },
        { tag: "alpha", count: 1 },
        { tag: "beta", count: 1 },
      ]),
    );
    const counts = facets.tags.map((tag) => tag.count);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
  });

  it("sees every change at once: an edit, a new tool, a deletion, a catalog made again under the same id", async () => {
    await importTools([custom("ticket_search", "Search support tickets.")]);
    const first = await page("q=ticket");
    expect(first.total).toBe(1);
    await toolRoute.PATCH(jsonRequest("PATCH", { summary: "Look up help desk cases." }), params({ catalog: "team", name: "ticket_search" }));
    expect((await page("q=ticket")).tools[0].summary).toBe("Look up help desk cases.");
    expect((await page("q=help%20desk")).total).toBe(1);
    expect((await page("q=help%20desk")).revision).toBeGreaterThan(first.revision);

    await toolsRoute.POST(jsonRequest("POST", custom("ticket_close", "Close a ticket.")), team);
    expect((await page("q=ticket")).tools.map((tool) => tool.name)).toEqual(["ticket_search", "ticket_close"]);
    await toolRoute.DELETE(jsonRequest("DELETE"), params({ catalog: "team", name: "ticket_search" }));
    expect((await page("q=ticket")).tools.map((tool) => tool.name)).toEqual(["ticket_close"]);

    expect((await catalogRoute.DELETE(jsonRequest("DELETE"), team)).status).toBe(204);
    expect((await catalogsRoute.POST(jsonRequest("POST", { name: "Team" }))).status).toBe(201);
    expect((await page("q=ticket")).total).toBe(0);
  });

  it("follows a rename and an import after the index was made, and notices a write that left no audit entry", async () => {
    await importTools([custom("old_name", "Ünïcode Summary here.")]);
    expect((await page("q=ÜNÏCODE")).tools.map((tool) => tool.name)).toEqual(["old_name"]);
    await toolRoute.PATCH(jsonRequest("PATCH", { name: "new_name" }), params({ catalog: "team", name: "old_name" }));
    expect((await page("q=_name")).tools.map((tool) => tool.name)).toEqual(["new_name"]);
    await importTools([custom("new_name", "Changed by import."), custom("another", "Also imported.")]);
    expect((await page("q=imported")).tools.map((tool) => tool.name)).toEqual(["another"]);
    expect((await page("q=changed%20by")).tools.map((tool) => tool.name)).toEqual(["new_name"]);

    await db
      .insert(tools)
      .values({ catalogId: "team", name: "sneaked_in", source: "custom", summary: "No audit entry.", description: "", inputSchema: { type: "object" } });
    await db.update(catalogs).set({ revision: 1_000 });
    expect((await page("q=sneaked")).total).toBe(1);
  });

  it("changedIn: exactly the tools one import created or updated, however they were changed since", async () => {
    const importOf = async (list: ReturnType<typeof custom>[]) =>
      (await importRoute.POST(jsonRequest("POST", { format: "toolshed.catalog", version: 1, tools: list }), team)).json();
    const first = await importOf([custom("a_one", "First."), custom("a_two", "Second."), custom("a_three", "Third.")]);
    await toolRoute.PATCH(jsonRequest("PATCH", { tags: ["later"] }), params({ catalog: "team", name: "a_two" }));
    const second = await importOf([custom("a_one", "First."), custom("a_three", "Third, changed."), custom("a_four", "Fourth.")]);
    expect(second).toMatchObject({ created: ["a_four"], updated: ["a_three"], unchanged: ["a_one"] });

    expect((await page(`changedIn=${second.revision}`)).tools.map((tool) => tool.name)).toEqual(["a_three", "a_four"]);
    expect((await page(`changedIn=${first.revision}&q=a_t`)).tools.map((tool) => tool.name)).toEqual(["a_two", "a_three"]);
    expect((await page(`changedIn=${second.revision + 1}`)).total).toBe(0);
    const refused = await toolsRoute.GET(apiRequest("/api/catalogs/team/tools?changedIn=last"), team);
    expect((await refused.json()).error).toMatchObject({ code: "bad_request", field: "changedIn" });
  });

  it("a cursor stays right when tools are added before the next page is read", async () => {
    await importTools(Array.from({ length: 10 }, (_, i) => custom(`t${i}`, `Tool ${i}.`)));
    const one = await page("source=custom&limit=6");
    await importTools([custom("late", "Added while paging.")]);
    const two = await page(`source=custom&limit=6&cursor=${one.nextCursor}`);
    expect([...one.tools, ...two.tools].map((tool) => tool.name)).toEqual([...Array.from({ length: 10 }, (_, i) => `t${i}`), "late"]);
    expect(two.nextCursor).toBeUndefined();
  });

  it("refuses bad parameters with 400 naming the field, and answers 404 and 401 like every route", async () => {
    for (const [query, field] of [
      ["limit=0", "limit"],
      ["limit=501", "limit"],
      ["source=bogus", "source"],
      ["state=on", "state"],
      ["cursor=abc", "cursor"],
      ["offset=-1", "offset"],
      [`q=${"x".repeat(201)}`, "q"],
    ]) {
      const response = await toolsRoute.GET(apiRequest(`/api/catalogs/team/tools?${query}`), team);
      expect(response.status, query).toBe(400);
      expect((await response.json()).error).toMatchObject({ code: "bad_request", field });
    }
    expect((await toolsRoute.GET(apiRequest("/api/catalogs/nope/tools?q=x"), params({ catalog: "nope" }))).status).toBe(404);
    expect((await toolsRoute.GET(apiRequest("/api/catalogs/team/tools?q=x", { headers: { authorization: "" } }), team)).status).toBe(401);
  });
});

describe("listToolPage at 10,000 tools", () => {
  it("pages, searches and filters a large catalog from one index per revision", async () => {
    const catalogId = "team";
    const rows = Array.from({ length: 10_000 }, (_, i) => ({
      catalogId,
      name: `svc${i % 100}_op_${i}`,
      source: "custom" as const,
      summary: i % 1000 === 0 ? `Rare needle ${i}.` : `Operation ${i} of service ${i % 100}.`,
      description: "x".repeat(200),
      inputSchema: { type: "object" as const, properties: { id: { type: "string" } } },
      tags: [`svc${i % 100}`, i % 2 ? "odd" : "even"],
      enabled: i % 3 !== 0,
    }));
    for (let i = 0; i < rows.length; i += 500) await db.insert(tools).values(rows.slice(i, i + 500));
    // Rows written behind the queries' back: bump the revision as every real change does.
    await db.update(catalogs).set({ revision: 99 });

    const first = await listToolPage(db, catalogId, {});
    expect(first.total).toBe(10_000 + BUILTINS);
    expect(first.tools).toHaveLength(100);
    expect(first.facets.tags.find((tag) => tag.tag === "odd")).toEqual({ tag: "odd", count: 5_000 });
    expect((await listToolPage(db, catalogId, { q: "needle" })).total).toBe(10);
    expect((await listToolPage(db, catalogId, { tag: "svc7", state: "disabled" })).total).toBe(rows.filter((row, i) => i % 100 === 7 && !row.enabled).length);
    let cursor = (await listToolPage(db, catalogId, { source: "custom", limit: 500 })).nextCursor;
    let seen = 500;
    while (cursor) {
      const next = await listToolPage(db, catalogId, { source: "custom", limit: 500, cursor });
      seen += next.tools.length;
      cursor = next.nextCursor;
    }
    expect(seen).toBe(10_000);
  });
});
