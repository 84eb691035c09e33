import { beforeEach, describe, expect, it } from "vitest";
import * as decisionsRoute from "@/app/api/catalogs/[catalog]/decisions/route";
import * as preselectRoute from "@/app/api/catalogs/[catalog]/preselect/route";
import * as toolSearchRoute from "@/app/api/catalogs/[catalog]/tool-search/route";
import * as toolRoute from "@/app/api/catalogs/[catalog]/tools/[name]/route";
import * as decisionRoute from "@/app/api/decisions/[id]/route";
import { seed } from "@/db/seed";
import { apiRequest, jsonRequest, params, useFreshDatabase } from "./helpers";

const demo = params({ catalog: "demo" });

async function post(route: { POST: (request: Request, context: typeof demo) => Promise<Response> }, body: unknown) {
  const response = await route.POST(jsonRequest("POST", body), demo);
  return { status: response.status, body: await response.json() };
}

beforeEach(async () => {
  await seed(await useFreshDatabase(), { demo: true });
});

describe("POST /preselect", () => {
  it("selects from names and summaries, assembles the turn's tool set by origin and records the decision", async () => {
    const { status, body } = await post(preselectRoute, {
      model: "claude-sonnet-4-5",
      agent: "build",
      messages: [{ role: "user", content: "Open a GitHub issue about the broken login page" }],
      k: 5,
    });
    expect(status).toBe(200);
    expect(body.selector).toBe("local");
    expect(body.selected.length).toBeLessThanOrEqual(5);
    expect(body.selected.slice(0, 3).map((tool: { name: string }) => tool.name)).toContain("github_create_issue");
    const scores = body.selected.map((tool: { score: number }) => tool.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(body.toolSet).toContainEqual({ name: "read", origin: "base" });
    expect(body.toolSet).toContainEqual({ name: "github_create_issue", origin: "preselected" });
    expect(body.toolSet.at(-1)).toEqual({ name: "ToolSearch", origin: "entry" });
    expect(body.tokens.toolSet).toBeLessThan(body.tokens.visible);

    const decision = (await (await decisionRoute.GET(jsonRequest("GET"), params({ id: body.decisionId }))).json()).decision;
    expect(decision).toMatchObject({
      kind: "preselect",
      path: "preselect",
      conversationId: body.conversationId,
      model: "claude-sonnet-4-5",
      agent: "build",
      selector: "local",
    });
    expect(decision.input.messages[0].content).toContain("GitHub issue");
  });

  it("carries tools selected earlier in the conversation as history", async () => {
    const first = await post(preselectRoute, {
      model: "gpt-5",
      agent: "build",
      messages: [{ role: "user", content: "Open a GitHub issue about the login bug" }],
      k: 3,
    });
    const second = await post(preselectRoute, {
      model: "gpt-5",
      agent: "build",
      conversationId: first.body.conversationId,
      messages: [{ role: "user", content: "What is the weather forecast in Paris tomorrow?" }],
      k: 3,
    });
    expect(second.body.conversationId).toBe(first.body.conversationId);
    expect(second.body.toolSet).toContainEqual({ name: "github_create_issue", origin: "history" });
  });

  it("says what is wrong: no user message, unknown agent, unknown conversation", async () => {
    expect((await post(preselectRoute, { model: "gpt-5", agent: "build", messages: [] })).status).toBe(400);
    expect((await post(preselectRoute, { model: "gpt-5", agent: "ghost", messages: [{ role: "user", content: "hi" }] })).status).toBe(404);
    const unknown = await post(preselectRoute, {
      model: "gpt-5",
      agent: "build",
      conversationId: "00000000-0000-4000-8000-000000000000",
      messages: [{ role: "user", content: "hi" }],
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.field).toBe("conversationId");
  });
});

describe("POST /tool-search", () => {
  it("resolves exact names locally and rejects a tool the agent may not use, with the reason", async () => {
    const { body } = await post(toolSearchRoute, { model: "gpt-5", agent: "plan", query: "select:slack_post_message,bash,made_up_tool" });
    expect(body.path).toBe("exact");
    expect(body.selector).toBeNull();
    expect(body.tools.map((tool: { name: string }) => tool.name)).toEqual(["slack_post_message"]);
    expect(body.tools[0].inputSchema.type).toBe("object");
    expect(body.rejected).toEqual([
      { name: "bash", reason: expect.stringContaining("removed at permissions") },
      { name: "made_up_tool", reason: expect.stringContaining("not in the catalog") },
    ]);
  });

  it("selects semantically for a description, and never returns a disabled tool", async () => {
    const found = await post(toolSearchRoute, { model: "gpt-5", agent: "build", query: "post a message to a Slack channel", maxResults: 3 });
    expect(found.body.path).toBe("semantic");
    expect(found.body.selector).toBe("local");
    expect(found.body.tools.map((tool: { name: string }) => tool.name)).toContain("slack_post_message");
    expect(found.body.tools.length).toBeLessThanOrEqual(3);

    await toolRoute.PATCH(jsonRequest("PATCH", { enabled: false }), params({ catalog: "demo", name: "slack_post_message" }));
    const exact = await post(toolSearchRoute, { model: "gpt-5", agent: "build", query: "slack_post_message" });
    expect(exact.body.path).toBe("exact");
    expect(exact.body.tools).toEqual([]);
    expect(exact.body.rejected).toEqual([{ name: "slack_post_message", reason: "not registered: disabled in the catalog" }]);
    const semantic = await post(toolSearchRoute, { model: "gpt-5", agent: "build", query: "post a message to a Slack channel" });
    expect(semantic.body.tools.map((tool: { name: string }) => tool.name)).not.toContain("slack_post_message");
  });

  it("lists decisions newest first, filtered by kind and conversation", async () => {
    const search = await post(toolSearchRoute, { model: "gpt-5", agent: "build", query: "select:github_get_issue" });
    await post(preselectRoute, {
      model: "gpt-5",
      agent: "build",
      conversationId: search.body.conversationId,
      messages: [{ role: "user", content: "list my calendar events" }],
    });
    const all = await (await decisionsRoute.GET(apiRequest(`/api?conversationId=${search.body.conversationId}`), demo)).json();
    expect(all.decisions.map((decision: { kind: string }) => decision.kind)).toEqual(["preselect", "tool-search"]);
    const searches = await (await decisionsRoute.GET(apiRequest("/api?kind=tool-search"), demo)).json();
    expect(searches.decisions).toHaveLength(1);
    expect(searches.decisions[0]).toMatchObject({ path: "exact", result: { tools: ["github_get_issue"] } });
    expect((await decisionsRoute.GET(apiRequest("/api?kind=nope"), demo)).status).toBe(400);
  });
});
