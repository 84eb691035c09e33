import { beforeEach, expect, it } from "vitest";
import * as agentRoute from "@/app/api/catalogs/[catalog]/agents/[name]/route";
import * as rulesRoute from "@/app/api/catalogs/[catalog]/rules/route";
import * as toolAuditRoute from "@/app/api/catalogs/[catalog]/tools/[name]/audit/route";
import * as toolRoute from "@/app/api/catalogs/[catalog]/tools/[name]/route";
import * as toolsRoute from "@/app/api/catalogs/[catalog]/tools/route";
import * as catalogsRoute from "@/app/api/catalogs/route";
import { jsonRequest, params, useFreshDatabase } from "./helpers";

const team = params({ catalog: "team" });
const plan = params({ catalog: "team", name: "plan" });

beforeEach(async () => {
  await useFreshDatabase();
  await catalogsRoute.POST(jsonRequest("POST", { name: "Team" }));
  await toolsRoute.POST(
    jsonRequest("POST", { name: "weather", summary: "Weather.", description: "Weather for a city.", inputSchema: { type: "object", properties: {} } }),
    team,
  );
});

it("renaming a tool an agent lists keeps the agent editable and the tool's history under its new name", async () => {
  const agent = (await (await agentRoute.GET(jsonRequest("GET"), plan)).json()).agent;
  expect((await agentRoute.PUT(jsonRequest("PUT", { ...agent, baseTools: [...agent.baseTools, "weather"] }), plan)).status).toBe(200);

  const renamed = await toolRoute.PATCH(jsonRequest("PATCH", { name: "forecast" }), params({ catalog: "team", name: "weather" }));
  expect(renamed.status).toBe(200);

  const edited = await agentRoute.PUT(jsonRequest("PUT", { ...agent, baseTools: [...agent.baseTools, "forecast"], description: "Plans." }), plan);
  expect(edited.status).toBe(200);
  const audit = await toolAuditRoute.GET(jsonRequest("GET"), params({ catalog: "team", name: "forecast" }));
  expect((await audit.json()).entries.map((entry: { action: string; subject: string }) => `${entry.action} ${entry.subject}`)).toEqual([
    "rename forecast",
    "create weather",
  ]);
});

it("deleting a tool an agent and the rules name answers what it updated, and leaves both editable", async () => {
  const agent = (await (await agentRoute.GET(jsonRequest("GET"), plan)).json()).agent;
  expect((await agentRoute.PUT(jsonRequest("PUT", { ...agent, baseTools: [...agent.baseTools, "weather"] }), plan)).status).toBe(200);
  expect((await rulesRoute.PUT(jsonRequest("PUT", { overrides: [{ tool: "weather", models: [], summary: "Weather, briefly." }] }), team)).status).toBe(200);

  const deleted = await toolRoute.DELETE(jsonRequest("DELETE"), params({ catalog: "team", name: "weather" }));
  expect(deleted.status).toBe(200);
  expect(await deleted.json()).toMatchObject({
    deleted: "weather",
    revision: expect.any(Number),
    references: { agents: ["plan"], modelRules: [], overrides: [{ tool: "weather", models: [], summary: "Weather, briefly." }] },
  });

  expect((await agentRoute.PUT(jsonRequest("PUT", { ...agent, description: "Plans." }), plan)).status).toBe(200);
  const rules = (await (await rulesRoute.GET(jsonRequest("GET"), team)).json()).rules;
  expect((await rulesRoute.PUT(jsonRequest("PUT", { ...rules, modelRules: rules.modelRules.slice(1) }), team)).status).toBe(200);
});
