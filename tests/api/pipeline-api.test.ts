import { beforeEach, describe, expect, it } from "vitest";
import * as agentRoute from "@/app/api/catalogs/[catalog]/agents/[name]/route";
import * as agentsRoute from "@/app/api/catalogs/[catalog]/agents/route";
import * as rulesRoute from "@/app/api/catalogs/[catalog]/rules/route";
import * as toolListRoute from "@/app/api/catalogs/[catalog]/tool-list/route";
import * as catalogsRoute from "@/app/api/catalogs/route";
import * as toolsRoute from "@/app/api/catalogs/[catalog]/tools/route";
import { apiRequest, jsonRequest, params, useFreshDatabase } from "./helpers";

const team = params({ catalog: "team" });

async function toolList(body: unknown) {
  return toolListRoute.POST(jsonRequest("POST", body), team);
}

beforeEach(async () => {
  await useFreshDatabase();
  await catalogsRoute.POST(jsonRequest("POST", { name: "Team" }));
});

describe("POST /tool-list", () => {
  it("gives gpt-5 apply_patch instead of edit and says which rule removed edit", async () => {
    const response = await toolList({ model: "gpt-5", agent: "build" });
    expect(response.status).toBe(200);
    const body = await response.json();
    const names = body.tools.map((tool: { name: string }) => tool.name);
    expect(names).toContain("apply_patch");
    expect(names).not.toContain("edit");
    expect(body.provider).toBe("openai");
    const removed = body.trace.find((entry: { stage: string }) => entry.stage === "model-rules").removed;
    expect(removed.find((note: { name: string }) => note.name === "edit").reason).toContain("Patch-preferring GPT models");
    expect(body.tokens.total).toBe(Object.values(body.tokens.perTool as Record<string, number>).reduce((a, b) => a + b, 0));
    expect(Object.keys(body.tokens.perTool).sort()).toEqual([...names].sort());
  });

  it("gives claude-sonnet-4-5 edit and write, in the Anthropic format", async () => {
    const body = await (await toolList({ model: "claude-sonnet-4-5", agent: "build", format: "anthropic" })).json();
    const edit = body.tools.find((tool: { name: string }) => tool.name === "edit");
    expect(Object.keys(edit).sort()).toEqual(["description", "input_schema", "name"]);
    expect(body.tools.some((tool: { name: string }) => tool.name === "apply_patch")).toBe(false);
  });

  it("answers in the OpenAI function-tool format", async () => {
    const body = await (await toolList({ model: "gpt-5", agent: "plan", format: "openai" })).json();
    for (const tool of body.tools) {
      expect(tool.type).toBe("function");
      expect(Object.keys(tool.function).sort()).toEqual(["description", "name", "parameters"]);
    }
    const names = body.tools.map((tool: { function: { name: string } }) => tool.function.name);
    expect(names).toContain("plan");
    expect(names).not.toContain("bash");
  });

  it("answers the same bytes to every caller of one list, marked so the server does not recompress them", async () => {
    const request = { model: "gpt-5", agent: "build" };
    const first = await toolList(request);
    expect(first.headers.get("content-type")).toBe("application/json");
    expect(first.headers.get("cache-control")).toBe("private, no-cache, no-transform");
    const text = await first.text();
    expect(await (await toolList(request)).text()).toBe(text);
    expect(JSON.parse(text)).toMatchObject({ catalog: "team", model: "gpt-5", agent: "build", format: "ai-sdk" });
  });

  it("answers GET with the query's list and an entity tag, and 304 while the list is unchanged", async () => {
    const get = (query: string, headers: Record<string, string> = {}) =>
      toolListRoute.GET(apiRequest(`/api/catalogs/team/tool-list?${query}`, { headers }), team);
    const posted = await toolList({ model: "gpt-5", agent: "build", format: "openai", flags: ["experimental.lsp", "x"] });
    const first = await get("model=gpt-5&agent=build&format=openai&flags=experimental.lsp&flags=x");
    expect(first.status).toBe(200);
    const tag = first.headers.get("etag");
    expect(tag).toMatch(/^"[\w-]+"$/);
    expect(posted.headers.get("etag")).toBe(tag);
    expect(await first.text()).toBe(await posted.text());

    const again = await get("model=gpt-5&agent=build&format=openai&flags=experimental.lsp&flags=x", { "if-none-match": `"other", W/${tag}` });
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(tag);
    expect(await again.text()).toBe("");
    expect((await get("model=gpt-5&agent=plan&format=openai", { "if-none-match": tag! })).status).toBe(200);
    // A condition on POST is not a revalidation: the list comes whole.
    expect((await toolListRoute.POST(jsonRequest("POST", { model: "gpt-5", agent: "build", format: "openai" }, { "if-none-match": "*" }), team)).status).toBe(
      200,
    );

    await toolsRoute.POST(jsonRequest("POST", { name: "fresh_tool", summary: "A new tool.", description: "", inputSchema: { type: "object" } }), team);
    const changed = await get("model=gpt-5&agent=build&format=openai&flags=experimental.lsp&flags=x", { "if-none-match": tag! });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(tag);

    const bad = await get("model=gpt-5&format=xml&colour=red");
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.problems.map((problem: { field: string }) => problem.field)).toEqual(["agent", "format", "body"]);
  });

  it("gives 404 for an unknown agent or catalog and 400 for a bad body", async () => {
    const agent = await toolList({ model: "gpt-5", agent: "nobody" });
    expect(agent.status).toBe(404);
    expect((await agent.json()).error).toMatchObject({ code: "not_found", field: "agent" });
    expect((await toolListRoute.POST(jsonRequest("POST", { model: "gpt-5", agent: "build" }), params({ catalog: "nope" }))).status).toBe(404);
    const bad = await toolList({ model: "", agent: "build", format: "xml" });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.problems.map((p: { field: string }) => p.field)).toEqual(["model", "format"]);
  });

  it("follows an edited permission: denying grep removes it with the rule as the reason", async () => {
    const build = await (await agentRoute.GET(jsonRequest("GET"), params({ catalog: "team", name: "build" }))).json();
    const updated = { ...build.agent, permissions: [...build.agent.permissions, { pattern: "gr*", action: "deny" }] };
    expect((await agentRoute.PUT(jsonRequest("PUT", updated), params({ catalog: "team", name: "build" }))).status).toBe(200);
    const body = await (await toolList({ model: "gpt-5", agent: "build" })).json();
    expect(body.tools.map((tool: { name: string }) => tool.name)).not.toContain("grep");
    const removed = body.trace.find((entry: { stage: string }) => entry.stage === "permissions").removed;
    expect(removed).toEqual([expect.objectContaining({ name: "grep", reason: expect.stringContaining("gr*") })]);
  });
});

describe("rules and agents API", () => {
  it("rejects a model rule naming an unknown tool or a bad pattern, and changes nothing", async () => {
    const before = await (await rulesRoute.GET(jsonRequest("GET"), team)).json();
    const response = await rulesRoute.PUT(
      jsonRequest("PUT", {
        modelRules: [{ id: "x", name: "X", include: ["gpt (5)"], exclude: [], enable: ["no_such_tool"], disable: [] }],
      }),
      team,
    );
    expect(response.status).toBe(400);
    const fields = (await response.json()).error.problems.map((p: { field: string }) => p.field);
    expect(fields).toEqual(["modelRules.0.include.0", "modelRules.0.enable.0"]);
    expect(await (await rulesRoute.GET(jsonRequest("GET"), team)).json()).toEqual(before);
  });

  it("turns websearch on for a provider without native search once a search service is configured", async () => {
    const without = await (await toolList({ model: "llama-3.3-70b", agent: "build" })).json();
    expect(without.tools.map((tool: { name: string }) => tool.name)).not.toContain("websearch");
    await rulesRoute.PUT(jsonRequest("PUT", { searchServiceConfigured: true }), team);
    const withService = await (await toolList({ model: "llama-3.3-70b", agent: "build" })).json();
    expect(withService.tools.map((tool: { name: string }) => tool.name)).toContain("websearch");
  });

  it("creates, refuses duplicates of, and deletes agents", async () => {
    const reviewer = {
      name: "reviewer",
      mode: "subagent",
      description: "Reviews diffs.",
      permissions: [{ pattern: "edit", action: "deny" }],
      baseTools: ["read"],
    };
    expect((await agentsRoute.POST(jsonRequest("POST", reviewer), team)).status).toBe(201);
    expect((await agentsRoute.POST(jsonRequest("POST", reviewer), team)).status).toBe(409);
    const bad = await agentsRoute.POST(jsonRequest("POST", { ...reviewer, name: "Bad Name", baseTools: ["nope"] }), team);
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.problems.map((p: { field: string }) => p.field)).toEqual(["name", "baseTools.0"]);
    const body = await (await toolList({ model: "gpt-5", agent: "build" })).json();
    const task = body.tools.find((tool: { name: string }) => tool.name === "task");
    expect(task.description).toContain("reviewer");
    expect((await agentRoute.DELETE(jsonRequest("DELETE"), params({ catalog: "team", name: "reviewer" }))).status).toBe(204);
    const names = (await (await agentsRoute.GET(jsonRequest("GET"), team)).json()).agents.map((agent: { name: string }) => agent.name);
    expect(names).toEqual(["build", "plan", "general", "explore"]);
  });
});
