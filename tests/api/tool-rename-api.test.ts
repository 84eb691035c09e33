import { beforeEach, expect, it } from "vitest";
import * as agentRoute from "@/app/api/catalogs/[catalog]/agents/[name]/route";
import * as toolAuditRoute from "@/app/api/catalogs/[catalog]/tools/[name]/audit/route";
import * as toolRoute from "@/app/api/catalogs/[catalog]/tools/[name]/route";
import * as toolsRoute from "@/app/api/catalogs/[catalog]/tools/route";
import * as catalogsRoute from "@/app/api/catalogs/route";
import { jsonRequest, params, useFreshDatabase } from "./helpers";

const plan = params({ catalog: "team", name: "plan" });

beforeEach(async () => {
  useFreshDatabase();
  await catalogsRoute.POST(jsonRequest("POST", { name: "Team" }));
  await toolsRoute.POST(
    jsonRequest("POST", { name: "weather", summary: "Weather.", description: "Weather for a city.", inputSchema: { type: "object", properties: {} } }),
    params({ catalog: "team" }),
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
