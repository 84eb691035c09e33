import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as reviewsRoute from "@/app/api/catalogs/[catalog]/definition-reviews/route";
import * as serverRoute from "@/app/api/catalogs/[catalog]/mcp-servers/[name]/route";
import * as serversRoute from "@/app/api/catalogs/[catalog]/mcp-servers/route";
import * as toolListRoute from "@/app/api/catalogs/[catalog]/tool-list/route";
import * as toolSearchRoute from "@/app/api/catalogs/[catalog]/tool-search/route";
import * as catalogsRoute from "@/app/api/catalogs/route";
import { useEnv } from "../sources/helpers";
import { processMarker } from "../support/processes";
import { apiRequest, asInstanceAdmin, jsonRequest, params, useFreshDatabase } from "./helpers";

// An MCP server whose first listing has a plain tool, one with a high finding and one with a medium one (tests/sources/fixtures/poisoned-server.mjs).
const POISONED_SERVER = path.resolve("tests/sources/fixtures/poisoned-server.mjs");
useEnv({ TOOLSHED_MCP_STDIO_COMMANDS: `${process.execPath} ${POISONED_SERVER}`, TOOLSHED_MCP_ALLOW_PRIVATE: undefined });

const team = params({ catalog: "team" });
const added: string[] = [];

async function addServer(name: string, mediumFindings?: "review" | "auto") {
  const config = {
    name,
    transport: "stdio",
    command: process.execPath,
    args: [POISONED_SERVER, processMarker(name)],
    ...(mediumFindings && { mediumFindings }),
  };
  const response = await serversRoute.POST(jsonRequest("POST", config, await asInstanceAdmin()), team);
  expect(response.status).toBe(201);
  added.push(name);
  return (await response.json()).server;
}

const offered = async () =>
  ((await (await toolListRoute.POST(jsonRequest("POST", { model: "gpt-5", agent: "build" }), team)).json()).tools as { name: string }[]).map(
    (tool) => tool.name,
  );

beforeEach(async () => {
  await useFreshDatabase();
  await catalogsRoute.POST(jsonRequest("POST", { name: "Team" }));
});
afterEach(async () => {
  for (const name of added.splice(0)) await serverRoute.DELETE(jsonRequest("DELETE"), params({ catalog: "team", name })).catch(() => undefined);
});

describe("an MCP server whose first listing has poisoned tools", () => {
  it("is added with its plain tools offered and the poisoned ones held back for review, by default medium ones too", async () => {
    const server = await addServer("words");
    expect(server).toMatchObject({ status: "connected" });
    const names = await offered();
    expect(names).toContain("words__lookup");
    expect(names).not.toContain("words__helper");
    expect(names).not.toContain("words__summarise");
    const search = await (await toolSearchRoute.POST(jsonRequest("POST", { model: "gpt-5", agent: "build", query: "select:words__helper" }), team)).json();
    expect(search.tools).toEqual([]);
    const { reviews } = await (await reviewsRoute.GET(apiRequest("/api/catalogs/team/definition-reviews"), team)).json();
    expect(reviews.map((review: { name: string; state: string; flagged: unknown }) => [review.name, review.state, review.flagged])).toEqual([
      ["words__helper", "new", { tool: "words__helper", severity: "high", kinds: ["instruction"] }],
      ["words__summarise", "new", { tool: "words__summarise", severity: "medium", kinds: ["instruction"] }],
    ]);
  });

  it("approves the medium ones with the listing when the server says auto, never the high ones; the setting is kept in its configuration", async () => {
    await addServer("words", "auto");
    const names = await offered();
    expect(names).toEqual(expect.arrayContaining(["words__lookup", "words__summarise"]));
    expect(names).not.toContain("words__helper");
    const { server } = await (await serverRoute.GET(jsonRequest("GET"), params({ catalog: "team", name: "words" }))).json();
    expect(server.config).toMatchObject({ mediumFindings: "auto" });
    const refused = await serversRoute.POST(
      jsonRequest("POST", { name: "other", transport: "stdio", command: process.execPath, mediumFindings: "sometimes" }, await asInstanceAdmin()),
      team,
    );
    expect(refused.status).toBe(400);
    expect(JSON.stringify(await refused.json())).toContain('mediumFindings is \\"review\\" or \\"auto\\"');
  });
});
