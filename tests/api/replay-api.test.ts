import { beforeEach, describe, expect, it } from "vitest";
import * as catalogRoute from "@/app/api/catalogs/[catalog]/route";
import * as preselectRoute from "@/app/api/catalogs/[catalog]/preselect/route";
import * as toolSearchRoute from "@/app/api/catalogs/[catalog]/tool-search/route";
import * as toolRoute from "@/app/api/catalogs/[catalog]/tools/[name]/route";
import * as replayRoute from "@/app/api/decisions/[id]/replay/route";
import type { Db } from "@/db/client";
import { getConversation } from "@/db/queries/conversations";
import { listDecisions } from "../support/decisions";
import { seed } from "@/db/seed";
import { apiRequest, jsonRequest, params, useFreshDatabase } from "./helpers";

const demo = params({ catalog: "demo" });
let db: Db;

async function post(route: { POST: (request: Request, context: typeof demo) => Promise<Response> }, body: unknown) {
  const response = await route.POST(jsonRequest("POST", body), demo);
  return { status: response.status, body: await response.json() };
}

async function replay(id: string, body?: unknown) {
  const request = body === undefined ? apiRequest("/api", { method: "POST" }) : jsonRequest("POST", body);
  const response = await replayRoute.POST(request, params({ id }));
  return { status: response.status, body: await response.json() };
}

async function setEnabled(name: string, enabled: boolean) {
  const response = await toolRoute.PATCH(jsonRequest("PATCH", { enabled }), params({ catalog: "demo", name }));
  expect(response.status).toBe(200);
}

beforeEach(async () => {
  db = await useFreshDatabase();
  await seed(db, { demo: true });
});

describe("POST /api/decisions/{id}/replay", () => {
  it("shows a tool disabled since the ToolSearch call as removed and newly rejected, with the disable in the catalog changes", async () => {
    const search = await post(toolSearchRoute, { model: "gpt-5", agent: "build", query: "select:slack_post_message" });
    expect(search.body.tools.map((tool: { name: string }) => tool.name)).toEqual(["slack_post_message"]);
    const historyBefore = (await getConversation(db, search.body.conversationId)).history;

    await setEnabled("slack_post_message", false);
    const { status, body } = await replay(search.body.decisionId);

    expect(status).toBe(200);
    expect(body.before).toMatchObject({ path: "exact", names: ["slack_post_message"] });
    expect(body.after).toMatchObject({ path: "exact", names: [], revision: body.before.revision + 1 });
    expect(body.diff.removed).toEqual(["slack_post_message"]);
    expect(body.diff.added).toEqual([]);
    expect(body.diff.rejected).toEqual([{ name: "slack_post_message", reason: "not registered: disabled in the catalog" }]);
    expect(body.diff.scoreChanges).toEqual([]);
    expect(body.catalogChanges).toEqual([
      {
        revision: body.before.revision + 1,
        subjectKind: "tool",
        subject: "slack_post_message",
        action: "disable",
        actor: "token:tests",
        actorName: "token tests",
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    ]);

    // Replay reads only: no new decision, and the conversation's history is untouched.
    expect(await listDecisions(db, "demo")).toHaveLength(1);
    expect((await getConversation(db, search.body.conversationId)).history).toEqual(historyBefore);
  });

  it("lists only the changes after the recorded revision, oldest first, and an empty diff when nothing that matters changed", async () => {
    await setEnabled("jira_add_comment", false);
    const search = await post(toolSearchRoute, { model: "gpt-5", agent: "build", query: "select:slack_post_message" });
    await setEnabled("jira_add_comment", true);
    await setEnabled("stripe_create_refund", false);

    const { body } = await replay(search.body.decisionId, {});
    expect(body.diff).toEqual({ added: [], removed: [], rejected: [], scoreChanges: [], call: null });
    expect(body.catalogChanges.map((change: { subject: string; action: string }) => `${change.action} ${change.subject}`)).toEqual([
      "enable jira_add_comment",
      "disable stripe_create_refund",
    ]);
  });

  it("replays a preselection with its recorded input and reports the tools it lost", async () => {
    const first = await post(preselectRoute, {
      model: "claude-sonnet-4-5",
      agent: "build",
      messages: [{ role: "user", content: "Open a GitHub issue about the broken login page" }],
      k: 5,
    });
    expect(first.body.selected.map((tool: { name: string }) => tool.name)).toContain("github_create_issue");
    await setEnabled("github_create_issue", false);

    const { status, body } = await replay(first.body.decisionId, { selector: "local" });
    expect(status).toBe(200);
    expect(body.after.selector).toBe("local");
    expect(body.before.scores.map((tool: { name: string }) => tool.name)).toEqual(first.body.selected.map((tool: { name: string }) => tool.name));
    expect(body.after.names).not.toContain("github_create_issue");
    expect(body.diff.removed).toContain("github_create_issue");
    expect(body.diff.rejected).toContainEqual({ name: "github_create_issue", reason: "not registered: disabled in the catalog" });
    expect(body.after.toolSet.at(-1)).toEqual({ name: "ToolSearch", origin: "entry" });
    expect(await listDecisions(db, "demo")).toHaveLength(1);
  });

  it("answers 404 for an unknown decision, 400 for an unknown selector or a bad body", async () => {
    const missing = await replay("no-such-decision");
    expect(missing.status).toBe(404);
    expect(missing.body.error.field).toBe("id");

    const search = await post(toolSearchRoute, { model: "gpt-5", agent: "build", query: "select:slack_post_message" });
    const unknown = await replay(search.body.decisionId, { selector: "openai:made-up" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ code: "bad_request", field: "selector" });
    expect((await replay(search.body.decisionId, { selector: "local", extra: 1 })).status).toBe(400);
    const malformed = await replayRoute.POST(jsonRequest("POST", "{not json"), params({ id: search.body.decisionId }));
    expect(malformed.status).toBe(400);
  });

  it("answers 404 once the decision's catalog is gone", async () => {
    const search = await post(toolSearchRoute, { model: "gpt-5", agent: "build", query: "select:slack_post_message" });
    const deleted = await catalogRoute.DELETE(jsonRequest("DELETE"), demo);
    expect(deleted.status).toBeLessThan(300);
    expect((await replay(search.body.decisionId)).status).toBe(404);
  });
});
