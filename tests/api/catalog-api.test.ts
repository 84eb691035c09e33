import { beforeEach, describe, expect, it } from "vitest";
import * as catalogRoute from "@/app/api/catalogs/[catalog]/route";
import * as exportRoute from "@/app/api/catalogs/[catalog]/export/route";
import * as importRoute from "@/app/api/catalogs/[catalog]/import/route";
import * as toolRoute from "@/app/api/catalogs/[catalog]/tools/[name]/route";
import * as toolsRoute from "@/app/api/catalogs/[catalog]/tools/route";
import * as catalogsRoute from "@/app/api/catalogs/route";
import * as healthRoute from "@/app/api/health/route";
import { jsonRequest, params, useFreshDatabase } from "./helpers";

const tool = {
  name: "ticket_search",
  summary: "Search support tickets by text.",
  description: "Full-text search over the help desk.",
  inputSchema: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
  tags: ["support"],
};

async function createTeam() {
  const response = await catalogsRoute.POST(jsonRequest("POST", { name: "Team" }));
  expect(response.status).toBe(201);
}

beforeEach(async () => {
  await useFreshDatabase();
});

describe("catalog API", () => {
  it("answers health", async () => {
    expect(await healthRoute.GET().json()).toEqual({ ok: true });
  });

  it("creates, lists and deletes catalogs", async () => {
    const created = await catalogsRoute.POST(jsonRequest("POST", { name: "Support Bots", description: "Help desk" }));
    expect(created.status).toBe(201);
    expect((await created.json()).catalog).toEqual({ id: "support-bots", teamId: "default", name: "Support Bots", description: "Help desk", revision: 1 });
    expect(await (await catalogsRoute.GET(jsonRequest("GET"))).json()).toEqual({
      catalogs: [{ id: "support-bots", teamId: "default", name: "Support Bots", description: "Help desk", revision: 1 }],
    });
    expect((await catalogRoute.DELETE(jsonRequest("DELETE"), params({ catalog: "support-bots" }))).status).toBe(204);
    const again = await catalogRoute.DELETE(jsonRequest("DELETE"), params({ catalog: "support-bots" }));
    expect(again.status).toBe(404);
    expect(await again.json()).toEqual({ error: { code: "not_found", message: 'Catalog "support-bots" not found.', field: "catalog" } });
  });

  it("gives 400 for malformed JSON and unknown fields, 409 for a duplicate", async () => {
    const malformed = await catalogsRoute.POST(jsonRequest("POST", "{not json"));
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).error.code).toBe("bad_request");
    const unknown = await catalogsRoute.POST(jsonRequest("POST", { name: "A", colour: "red" }));
    expect(unknown.status).toBe(400);
    await createTeam();
    const duplicate = await catalogsRoute.POST(jsonRequest("POST", { name: "Team again", id: "team" }));
    expect(duplicate.status).toBe(409);
    expect((await duplicate.json()).error).toMatchObject({ code: "conflict", field: "id" });
  });
});

describe("tool API", () => {
  beforeEach(createTeam);
  const team = params({ catalog: "team" });

  it("creates, reads, patches and deletes a custom tool", async () => {
    const created = await toolsRoute.POST(jsonRequest("POST", tool), team);
    expect(created.status).toBe(201);
    expect((await created.json()).tool).toMatchObject({ ...tool, source: "custom", enabled: true });

    const listed = (await (await toolsRoute.GET(jsonRequest("GET"), team)).json()).tools;
    expect(listed.at(-1)).toMatchObject({ name: "ticket_search", source: "custom" });
    for (const entry of listed)
      expect(Object.keys(entry)).toEqual(expect.arrayContaining(["name", "source", "summary", "description", "inputSchema", "enabled", "tags"]));

    const named = params({ catalog: "team", name: "ticket_search" });
    const patched = await toolRoute.PATCH(jsonRequest("PATCH", { enabled: false, tags: ["support", "read-only"] }), named);
    expect((await patched.json()).tool).toMatchObject({ enabled: false, tags: ["support", "read-only"] });
    expect((await (await toolRoute.GET(jsonRequest("GET"), named)).json()).tool.enabled).toBe(false);
    expect((await toolRoute.DELETE(jsonRequest("DELETE"), named)).status).toBe(200);
    expect((await toolRoute.GET(jsonRequest("GET"), named)).status).toBe(404);
  });

  it("says what is wrong and where, with 400 (nesting of any depth too), 404, 409 and 413", async () => {
    const invalid = await toolsRoute.POST(jsonRequest("POST", { ...tool, name: "bad name", inputSchema: { type: "string" } }), team);
    expect(invalid.status).toBe(400);
    const body = await invalid.json();
    expect(body.error.field).toBe("name");
    expect(body.error.problems.map((p: { field: string }) => p.field)).toEqual(["name", "inputSchema.type"]);

    expect((await toolsRoute.POST(jsonRequest("POST", tool), params({ catalog: "nope" }))).status).toBe(404);
    await toolsRoute.POST(jsonRequest("POST", tool), team);
    expect((await toolsRoute.POST(jsonRequest("POST", tool), team)).status).toBe(409);

    const huge = await toolsRoute.POST(jsonRequest("POST", { ...tool, name: "huge", description: "x".repeat(1024 * 1024) }), team);
    expect(huge.status).toBe(413);
    expect((await huge.json()).error.code).toBe("too_large");
    const properties = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`p${i}`, {}]));
    const wide = await toolsRoute.POST(jsonRequest("POST", { ...tool, name: "wide", inputSchema: { type: "object", properties } }), team);
    expect(wide.status).toBe(413);
    for (const levels of [40, 9_000]) {
      // Written out as text (JSON.stringify itself cannot nest this deep), within the 256 KiB body limit.
      const nested = `${'{"type":"array","items":['.repeat(levels)}{}${"]}".repeat(levels)}`;
      const text = JSON.stringify({ ...tool, name: `deep${levels}` }).replace(/}$/, `,"inputSchema":{"type":"object","properties":{"nested":${nested}}}}`);
      const deep = await toolsRoute.POST(jsonRequest("POST", text), team);
      expect(deep.status).toBe(400);
      expect((await deep.json()).error).toMatchObject({ code: "bad_request", field: "inputSchema", message: expect.stringContaining("nested too deeply") });
    }
    const tools = (await (await toolsRoute.GET(jsonRequest("GET"), team)).json()).tools;
    expect(tools.filter((entry: { source: string }) => entry.source === "custom")).toHaveLength(1);
  });

  it("refuses to delete or rename a built-in", async () => {
    const bash = params({ catalog: "team", name: "bash" });
    expect((await toolRoute.DELETE(jsonRequest("DELETE"), bash)).status).toBe(400);
    expect((await toolRoute.PATCH(jsonRequest("PATCH", { name: "shell" }), bash)).status).toBe(400);
    expect((await (await toolRoute.PATCH(jsonRequest("PATCH", { enabled: false }), bash)).json()).tool.enabled).toBe(false);
  });
});

describe("export and import", () => {
  beforeEach(createTeam);
  const team = params({ catalog: "team" });

  it("exports the whole catalog and imports it into another", async () => {
    await toolsRoute.POST(jsonRequest("POST", tool), team);
    const exported = await (await exportRoute.GET(jsonRequest("GET"), team)).json();
    expect(exported).toMatchObject({ format: "toolshed.catalog", version: 1, catalog: { id: "team" } });
    await catalogsRoute.POST(jsonRequest("POST", { name: "Copy" }));
    const imported = await importRoute.POST(jsonRequest("POST", exported), params({ catalog: "copy" }));
    expect(imported.status).toBe(200);
    expect(await imported.json()).toMatchObject({ created: ["ticket_search"], updated: [] });
  });

  it("imports a labelled set, or nothing when one tool is bad", async () => {
    const set = {
      tools: [
        { name: "weather", description: "Get the forecast.", parameters: null },
        { name: "translate", description: "Translate text.", parameters: { type: "object", properties: { text: { type: "string" } } } },
      ],
      cases: [{ id: "1", query: "rain tomorrow?", expected: ["weather"] }],
    };
    const bad = { ...set, tools: [...set.tools, { name: "broken tool", description: "x", parameters: { type: "nope" } }] };
    const rejected = await importRoute.POST(jsonRequest("POST", bad), team);
    expect(rejected.status).toBe(400);
    expect((await rejected.json()).error.problems.map((p: { field: string }) => p.field)).toEqual(["tools.2.name", "tools.2.inputSchema.type"]);
    const before = (await (await toolsRoute.GET(jsonRequest("GET"), team)).json()).tools.length;
    expect(before).toBe(15);
    const accepted = await importRoute.POST(jsonRequest("POST", set), team);
    expect(await accepted.json()).toMatchObject({ created: ["weather", "translate"] });
  });
});
