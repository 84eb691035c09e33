import { beforeEach, describe, expect, it } from "vitest";
import * as agentRoute from "@/app/api/catalogs/[catalog]/agents/[name]/route";
import * as agentsRoute from "@/app/api/catalogs/[catalog]/agents/route";
import * as importRoute from "@/app/api/catalogs/[catalog]/import/route";
import * as preselectRoute from "@/app/api/catalogs/[catalog]/preselect/route";
import * as catalogRoute from "@/app/api/catalogs/[catalog]/route";
import * as rulesRoute from "@/app/api/catalogs/[catalog]/rules/route";
import * as toolListRoute from "@/app/api/catalogs/[catalog]/tool-list/route";
import * as toolRoute from "@/app/api/catalogs/[catalog]/tools/[name]/route";
import * as toolsRoute from "@/app/api/catalogs/[catalog]/tools/route";
import * as catalogsRoute from "@/app/api/catalogs/route";
import { listCatalogs } from "@/db/queries/catalogs";
import { findTool } from "@/db/queries/tools";
import type { Db } from "@/db/client";
import { jsonRequest, params, useFreshDatabase } from "./helpers";

const team = params({ catalog: "team" });
const NUL = "\u0000";
const RLO = "\u202e";
const LONE_SURROGATE = "\ud800";
const ESCAPE = "\u001b";
const ISOLATE = "\u2066";
const C1 = "\u0085";

/** The answer: status and the error's field (or its first problem's). */
async function refusal(response: Response | Promise<Response>) {
  const resolved = await response;
  const body = await resolved.json();
  return {
    status: resolved.status,
    field: body.error?.field,
    message: body.error?.message as string | undefined,
    problems: body.error?.problems as { field: string }[] | undefined,
  };
}

const tool = {
  name: "ticket_search",
  summary: "Search support tickets.",
  description: "Full-text search.\nLine breaks and\ttabs are fine in a description.",
  inputSchema: { type: "object", properties: {} },
};
const agent = { name: "reviewer", mode: "subagent", description: "Reviews.", permissions: [{ pattern: "*", action: "allow" }], baseTools: ["read"] };

let db: Db;
beforeEach(async () => {
  db = await useFreshDatabase();
  expect((await catalogsRoute.POST(jsonRequest("POST", { name: "Team" }))).status).toBe(201);
});

describe("names, ids and patterns refuse NUL, control, bidirectional-control characters and lone surrogates", () => {
  it("in catalog names, descriptions and ids, naming the field", async () => {
    for (const [body, field] of [
      [{ name: `invoice${RLO}fdp.exe` }, "name"],
      [{ name: `a${NUL}b` }, "name"],
      [{ name: `line${ESCAPE}[31m` }, "name"],
      [{ name: `x${C1}y` }, "name"],
      [{ name: `x${LONE_SURROGATE}` }, "name"],
      [{ name: "Fine", description: `nul${NUL}` }, "description"],
      [{ name: "Fine", id: `fine${ISOLATE}` }, "id"],
    ] as const) {
      const answer = await refusal(catalogsRoute.POST(jsonRequest("POST", body)));
      expect(answer, JSON.stringify(body)).toMatchObject({ status: 400, field });
    }
    const renamed = await refusal(catalogRoute.PATCH(jsonRequest("PATCH", { name: `Team${RLO}` }), team));
    expect(renamed).toMatchObject({ status: 400, field: "name" });
    expect(renamed.message).toContain("U+202E");
    expect((await listCatalogs(db)).map((catalog) => catalog.name)).toEqual(["Team"]);
    // Everyday text stays welcome: accents, other scripts, emoji, and (in descriptions) line breaks.
    expect((await catalogsRoute.POST(jsonRequest("POST", { name: "Café 日本 🚀", id: "cafe", description: "One\nTwo\tthree" }))).status).toBe(201);
  });

  it("in a tool's summary and description: NUL and lone surrogates (line breaks and tabs are fine)", async () => {
    expect((await toolsRoute.POST(jsonRequest("POST", tool), team)).status).toBe(201);
    expect(await refusal(toolsRoute.POST(jsonRequest("POST", { ...tool, name: "other", description: `a${NUL}b` }), team))).toMatchObject({
      status: 400,
      field: "description",
    });
    expect(await refusal(toolsRoute.POST(jsonRequest("POST", { ...tool, name: "other", summary: `half ${LONE_SURROGATE}` }), team))).toMatchObject({
      status: 400,
      field: "summary",
    });
    expect(
      await refusal(toolRoute.PATCH(jsonRequest("PATCH", { description: `x${LONE_SURROGATE}` }), params({ catalog: "team", name: "ticket_search" }))),
    ).toMatchObject({ status: 400, field: "description" });
    // A pair of surrogates is an emoji, not a lone one.
    expect((await toolRoute.PATCH(jsonRequest("PATCH", { description: "Rocket 🚀" }), params({ catalog: "team", name: "ticket_search" }))).status).toBe(200);
  });

  it("in model ids, agent names and the other names of a tool-list or preselection request", async () => {
    for (const [body, field] of [
      [{ model: `gpt-5${NUL}`, agent: "build" }, "model"],
      [{ model: "gpt-5", agent: `bu${RLO}ild` }, "agent"],
      [{ model: "gpt-5", agent: "build", provider: `openai${LONE_SURROGATE}` }, "provider"],
      [{ model: "gpt-5", agent: "build", mode: `plan${ESCAPE}` }, "mode"],
      [{ model: "gpt-5", agent: "build", flags: [`a${ISOLATE}`] }, "flags.0"],
    ] as const) {
      expect(await refusal(toolListRoute.POST(jsonRequest("POST", body), team)), JSON.stringify(body)).toMatchObject({ status: 400, field });
    }
    const preselect = { model: `gpt${RLO}5`, agent: "build", messages: [{ role: "user", content: "hello" }] };
    expect(await refusal(preselectRoute.POST(jsonRequest("POST", preselect), team))).toMatchObject({ status: 400, field: "model" });
  });

  it("in agents: name, description, permission patterns and base tools", async () => {
    for (const [body, field] of [
      [{ ...agent, name: `rev${RLO}iewer` }, "name"],
      [{ ...agent, description: `x${NUL}` }, "description"],
      [{ ...agent, permissions: [{ pattern: `bash${NUL}`, action: "deny" }] }, "permissions.0.pattern"],
      [{ ...agent, baseTools: [`read${LONE_SURROGATE}`] }, "baseTools.0"],
    ] as const) {
      expect(await refusal(agentsRoute.POST(jsonRequest("POST", body), team)), JSON.stringify(body)).toMatchObject({ status: 400, field });
    }
    expect(await refusal(agentRoute.PUT(jsonRequest("PUT", { ...agent, name: `build${ISOLATE}` }), params({ catalog: "team", name: "build" })))).toMatchObject({
      status: 400,
      field: "name",
    });
  });

  it("in rules: model rule ids, names and patterns, provider names, override tools, models and texts", async () => {
    const rule = { id: "r1", name: "Rule", include: ["*"], exclude: [], enable: [], disable: [] };
    for (const [body, field] of [
      [{ modelRules: [{ ...rule, id: `r${NUL}1` }] }, "modelRules.0.id"],
      [{ modelRules: [{ ...rule, name: `Rule${RLO}` }] }, "modelRules.0.name"],
      [{ modelRules: [{ ...rule, include: [`gpt-${ESCAPE}`] }] }, "modelRules.0.include.0"],
      [{ modelRules: [{ ...rule, disable: [`bash${LONE_SURROGATE}`] }] }, "modelRules.0.disable.0"],
      [{ providers: [{ id: "openai", name: `Open${RLO}AI`, webSearch: true }] }, "providers.0.name"],
      [{ overrides: [{ tool: `read${NUL}`, models: [], summary: "Read." }] }, "overrides.0.tool"],
      [{ overrides: [{ tool: "read", models: [`gpt${ISOLATE}`], summary: "Read." }] }, "overrides.0.models.0"],
      [{ overrides: [{ tool: "read", models: [], description: `x${NUL}` }] }, "overrides.0.description"],
    ] as const) {
      expect(await refusal(rulesRoute.PUT(jsonRequest("PUT", body), team)), JSON.stringify(body)).toMatchObject({ status: 400, field });
    }
  });

  it("in an import file: every such problem is listed with its tool's field, and nothing is written", async () => {
    const document = {
      tools: [
        { name: "fine", description: "Fine." },
        { name: "bad_text", description: `x${NUL}y` },
      ],
    };
    const answer = await refusal(importRoute.POST(jsonRequest("POST", document), team));
    expect(answer.status).toBe(400);
    expect(answer.problems?.map((problem) => problem.field)).toContain("tools.1.description");
    expect(answer.problems?.map((problem) => problem.field)).not.toContain("tools.0.description");
    expect(await findTool(db, "team", "fine")).toBeUndefined();
  });
});
