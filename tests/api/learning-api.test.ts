import { beforeEach, describe, expect, it } from "vitest";
import * as evaluationRoute from "@/app/api/catalogs/[catalog]/evaluations/[id]/route";
import * as evaluationsRoute from "@/app/api/catalogs/[catalog]/evaluations/route";
import { learnFromCall } from "@/app/_services/learning";
import * as learningRoute from "@/app/api/catalogs/[catalog]/learning/route";
import * as preselectRoute from "@/app/api/catalogs/[catalog]/preselect/route";
import * as toolRoute from "@/app/api/catalogs/[catalog]/tools/[name]/route";
import * as usageRoute from "@/app/api/catalogs/[catalog]/usage/route";
import * as decisionRoute from "@/app/api/decisions/[id]/route";
import type { Db } from "@/db/client";
import { appendMessage, createConversation } from "@/db/queries/conversations";
import { seed } from "@/db/seed";
import { apiRequest, createTestToken, jsonRequest, params, useFreshDatabase } from "./helpers";

const demo = params({ catalog: "demo" });
const ASKED = "what should I pack for the beach trip to Nice on saturday";

async function call(handler: (request: Request, context: typeof demo) => Promise<Response>, request: Request) {
  const response = await handler(request, demo);
  return { status: response.status, body: await response.json() };
}

const report = (body: unknown, headers: Record<string, string> = {}) => call(usageRoute.POST, jsonRequest("POST", body, headers));

async function preselect(content: string, agent = "build") {
  const { body } = await call(preselectRoute.POST, jsonRequest("POST", { model: "gpt-5", agent, messages: [{ role: "user", content }], k: 5 }));
  return body as { selected: { name: string; score: number; learned?: number }[]; decisionId: string };
}

let db: Db;

beforeEach(async () => {
  db = await useFreshDatabase();
  await seed(db, { demo: true });
});

describe("POST /api/catalogs/{c}/usage", () => {
  it("learns which tool served a request: the next similar request gets it, and the decision says how much was learned", async () => {
    const before = await preselect(ASKED);
    expect(before.selected.map((tool) => tool.name)).not.toContain("weather_get_forecast");
    expect(before.selected.every((tool) => tool.learned === undefined)).toBe(true);

    const reported = await report({
      events: [
        { query: "packing for the beach trip this weekend, what do I bring", used: ["weather_get_forecast"] },
        { query: "beach trip on sunday: pack a jacket?", used: ["weather_get_forecast"] },
      ],
    });
    expect(reported).toEqual({ status: 200, body: { accepted: 2, ignored: [] } });

    const after = await preselect(ASKED);
    const learned = after.selected.find((tool) => tool.name === "weather_get_forecast");
    expect(learned?.learned).toBeGreaterThan(0);
    expect(after.selected.slice(0, 3).map((tool) => tool.name)).toContain("weather_get_forecast");
    const decision = (await (await decisionRoute.GET(jsonRequest("GET"), params({ id: after.decisionId }))).json()).decision;
    expect(decision.result.selected.find((tool: { name: string }) => tool.name === "weather_get_forecast").learned).toBe(learned?.learned);

    // A request the reports have nothing to say about is ranked as before.
    const unrelated = "open a GitHub issue about the broken login page";
    const plain = await preselect(unrelated);
    expect(plain.selected.every((tool) => tool.learned === undefined)).toBe(true);
  });

  it("ignores tools the catalog does not have or cannot use, and those the named model and agent may not see, saying why", async () => {
    const disabled = await toolRoute.PATCH(jsonRequest("PATCH", { enabled: false }), params({ catalog: "demo", name: "weather_get_current" }));
    expect(disabled.status).toBe(200);
    const { status, body } = await report({
      model: "gpt-5",
      agent: "plan",
      events: [
        { query: "archive the logs", used: ["bash", "made_up_tool"] },
        { query: "forecast for Nice", used: ["weather_get_forecast", "weather_get_current"] },
        { query: "yes please!\u0007", used: ["weather_get_forecast"] },
      ],
    });
    expect(status).toBe(200);
    expect(body.accepted).toBe(1);
    expect(body.ignored).toEqual([
      { index: 0, tool: "bash", reason: expect.stringContaining("removed at") },
      { index: 0, tool: "made_up_tool", reason: "not in the catalog" },
      { index: 1, tool: "weather_get_current", reason: "disabled in the catalog" },
      { index: 2, reason: expect.stringContaining("no words to learn from") },
    ]);
    expect((await call(learningRoute.GET, apiRequest("/api/catalogs/demo/learning"))).body).toMatchObject({ reports: 1 });
  });

  it("learns from a call the request that asked for the tool, not the reply that let it run", async () => {
    const conversation = await createConversation(db, { catalogId: "demo", model: "gpt-5", agent: "build" });
    await appendMessage(db, conversation.id, { role: "user", content: "what is the forecast for the regatta in Nice" });
    await appendMessage(db, conversation.id, { role: "assistant", content: "Shall I look it up?" });
    await appendMessage(db, conversation.id, { role: "user", content: "yes please!" });
    await learnFromCall(db, "demo", conversation.id, "weather_get_forecast");
    const learned = await call(learningRoute.GET, apiRequest("/api/catalogs/demo/learning?tool=weather_get_forecast"));
    expect(learned.body.words.map((word: { word: string }) => word.word)).toEqual(expect.arrayContaining(["forecast", "regatta", "nice"]));
  });

  it("never offers a tool the pipeline denies, however much was learned for it", async () => {
    const events = Array.from({ length: 5 }, (_, index) => ({ query: `compress the nightly log archive number ${index}`, used: ["bash"] }));
    expect((await report({ events })).body.accepted).toBe(5);
    const planned = await preselect("compress the nightly log archive", "plan");
    expect(planned.selected.map((tool) => tool.name)).not.toContain("bash");
  });

  it("says what is wrong with a report, and needs the write scope", async () => {
    expect((await report({ events: [] })).status).toBe(400);
    expect((await report({ events: [{ query: "x", used: [] }] })).body.error.message).toContain("at least one tool");
    expect((await report({ model: "gpt-5", events: [{ query: "x", used: ["bash"] }] })).status).toBe(400);
    const tooMany = Array.from({ length: 1_001 }, () => ({ query: "x", used: ["bash"] }));
    expect((await report({ events: tooMany })).body.error.message).toContain("At most 1000 events");
    const manyUses = Array.from({ length: 300 }, () => ({ query: "x", used: Array.from({ length: 20 }, (_, index) => `tool_${index}`) }));
    expect((await report({ events: manyUses })).body.error.message).toContain("At most 5000 tool uses");
    const reader = await createTestToken(db, "read", "reader");
    expect((await report({ events: [{ query: "x", used: ["bash"] }] }, { authorization: `Bearer ${reader}` })).status).toBe(403);
  });
});

describe("/api/catalogs/{c}/learning", () => {
  it("shows what was learned per tool, turns learning off and on, and forgets it on reset", async () => {
    await report({ events: [{ query: "packing for the beach trip this weekend", used: ["weather_get_forecast"] }] });
    const status = await call(learningRoute.GET, apiRequest("/api/catalogs/demo/learning"));
    expect(status.body).toMatchObject({ enabled: true, reports: 1, tools: 1, calibrated: false });
    const perTool = await call(learningRoute.GET, apiRequest("/api/catalogs/demo/learning?tool=weather_get_forecast"));
    expect(perTool.body.words.map((word: { word: string }) => word.word)).toEqual(expect.arrayContaining(["beach", "packing", "trip"]));
    expect(perTool.body.reports).toBeCloseTo(1, 2);

    expect((await call(learningRoute.PUT, jsonRequest("PUT", { enabled: false }))).body.enabled).toBe(false);
    expect((await preselect(ASKED)).selected.every((tool) => tool.learned === undefined)).toBe(true);
    expect((await call(learningRoute.PUT, jsonRequest("PUT", { enabled: true }))).body.enabled).toBe(true);
    expect((await preselect(ASKED)).selected.some((tool) => tool.learned !== undefined)).toBe(true);

    const reset = await call(learningRoute.DELETE, jsonRequest("DELETE"));
    expect(reset.body).toMatchObject({ deleted: 1, reports: 0, tools: 0 });
    expect((await preselect(ASKED)).selected.every((tool) => tool.learned === undefined)).toBe(true);
  });
});

describe("a renamed tool", () => {
  it("keeps what was learned for it under its new name", async () => {
    await report({ events: [{ query: "packing for the beach trip this weekend", used: ["weather_get_forecast"] }] });
    const renamed = await toolRoute.PATCH(jsonRequest("PATCH", { name: "forecast" }), params({ catalog: "demo", name: "weather_get_forecast" }));
    expect(renamed.status).toBe(200);
    const learned = await call(learningRoute.GET, apiRequest("/api/catalogs/demo/learning?tool=forecast"));
    expect(learned.body.words.map((word: { word: string }) => word.word)).toContain("beach");
    expect((await call(learningRoute.GET, apiRequest("/api/catalogs/demo/learning?tool=weather_get_forecast"))).body.words).toEqual([]);
  });
});

describe("evaluations with and without learning", () => {
  async function run(body: unknown) {
    const started = await call(evaluationsRoute.POST, jsonRequest("POST", body));
    if (started.status !== 202) return started;
    for (;;) {
      const id = started.body.evaluation.id as string;
      const read = await evaluationRoute.GET(apiRequest(`/api/catalogs/demo/evaluations/${id}`), params({ catalog: "demo", id }));
      const { evaluation } = await read.json();
      if (evaluation.status !== "running") return { status: 200, body: evaluation };
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  it("runs the same cases side by side: the run with learning records selector local+learned and finds what was learned", async () => {
    await report({ events: [{ query: "packing for the beach trip this weekend, what do I bring", used: ["weather_get_forecast"] }] });
    const cases = [{ query: ASKED, expected: ["weather_get_forecast"] }];
    const without = await run({ cases, k: 3, name: "beach" });
    const withLearning = await run({ cases, k: 3, name: "beach", learning: true });
    expect(without.body).toMatchObject({ status: "done", selector: "local" });
    expect(withLearning.body).toMatchObject({ status: "done", selector: "local+learned" });
    expect(without.body.metrics["recall@5"]).toBe(0);
    expect(withLearning.body.metrics["recall@1"]).toBe(1);
    const refused = await call(evaluationsRoute.POST, jsonRequest("POST", { cases, learning: true, selector: "openai:gpt-5-mini" }));
    expect(refused.status).toBe(400);
  });
});
