import { beforeEach, describe, expect, it, vi } from "vitest";
import * as agentRoute from "@/app/api/catalogs/[catalog]/agents/[name]/route";
import * as agentsRoute from "@/app/api/catalogs/[catalog]/agents/route";
import * as catalogsRoute from "@/app/api/catalogs/route";
import { saveAgentAction } from "@/app/catalogs/[catalog]/agents/actions";
import { writeTransaction, type Db } from "@/db/client";
import { createCatalog } from "@/db/queries/catalogs";
import { agents } from "@/db/tables";
import type { Agent } from "@/lib/rules/agents";
import { rejection } from "../db/support/thrown";
import { jsonRequest, params, useFreshDatabase } from "./helpers";
import { freshDatabase } from "../support/fresh-database";

// The agents page's server action, as a signed-in editor calls it (no request scope in tests).
vi.mock(import("@/app/_services/access"), async (importOriginal) => ({
  ...(await importOriginal()),
  authorizeCatalogAction: async () => ({ principal: undefined as never, actor: "tests" }),
}));
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));

async function agentNamed(name: string): Promise<Agent> {
  return (await (await agentRoute.GET(jsonRequest("GET"), params({ catalog: "team", name }))).json()).agent;
}

async function rename(from: string, to: string): Promise<Response> {
  return agentRoute.PUT(jsonRequest("PUT", { ...(await agentNamed(from)), name: to }), params({ catalog: "team", name: from }));
}

async function agentNames(): Promise<string[]> {
  return (await (await agentsRoute.GET(jsonRequest("GET"), params({ catalog: "team" }))).json()).agents.map((agent: Agent) => agent.name);
}

describe("renaming an agent onto another agent's name", () => {
  beforeEach(async () => {
    await useFreshDatabase();
    await catalogsRoute.POST(jsonRequest("POST", { name: "Team" }));
  });

  // plan comes before explore in the list, explore after plan: both directions must be refused alike.
  it.each([
    ["plan", "explore"],
    ["explore", "plan"],
  ])("refuses %s → %s with 409 naming the agent, and changes nothing", async (from, to) => {
    const before = await agentNames();
    const response = await rename(from, to);
    expect(response.status).toBe(409);
    expect((await response.json()).error).toEqual({ code: "conflict", field: "name", message: `An agent named "${to}" already exists in this catalog.` });
    expect(await agentNames()).toEqual(before);
  });

  it("gives the agents page the same message as a field error on the name", async () => {
    const plan = await agentNamed("plan");
    const result = await saveAgentAction("team", { ...plan, name: "explore" }, "plan");
    expect(result).toEqual({
      ok: false,
      error: {
        code: "conflict",
        field: "name",
        message: 'An agent named "explore" already exists in this catalog.',
        problems: [{ field: "name", message: 'An agent named "explore" already exists in this catalog.' }],
      },
    });
  });

  it("still saves an agent under its own name", async () => {
    const plan = await agentNamed("plan");
    const response = await rename("plan", "plan");
    expect(response.status).toBe(200);
    expect(await agentNamed("plan")).toEqual(plan);
  });
});

describe("a unique constraint that a check missed", () => {
  let db: Db;
  beforeEach(async () => {
    db = await freshDatabase();
    await createCatalog(db, { name: "Team" }, "tests");
  });

  it("is a 409 conflict on the field, not an internal error", async () => {
    const error = await rejection(
      writeTransaction(db, async (tx) => {
        await tx.insert(agents).values({ catalogId: "team", name: "plan", mode: "primary", permissions: [], baseTools: [] });
      }),
    );
    expect(error).toMatchObject({ code: "conflict", status: 409, field: "name", message: "Another agent in this catalog already has this name." });
  });
});
