import { beforeEach, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { getAgent, saveAgent } from "@/db/queries/agents";
import { listAudit, listToolHistory } from "@/db/queries/audit";
import { createCatalog, getCatalog } from "@/db/queries/catalogs";
import { addToHistory, createConversation, getConversation } from "@/db/queries/conversations";
import { getRules, saveRules } from "@/db/queries/rules";
import { deleteSourceTools, syncSourceTools } from "@/db/queries/source-tools";
import { createCustomTool, deleteTool, updateTool } from "@/db/queries/tools";
import { freshDatabase } from "../support/fresh-database";

const ACTOR = "test";

function draft(name: string) {
  return { name, summary: `The ${name} tool.`, description: `Does what ${name} does.`, inputSchema: { type: "object" as const, properties: {} } };
}

/** The tool's history as the tools page shows it, newest first: `action subject`. */
async function history(name: string): Promise<string[]> {
  return (await listToolHistory(db, "team", name)).map((entry) => `${entry.action} ${entry.subject}`);
}

let db: Db;
beforeEach(async () => {
  db = await freshDatabase();
  await createCatalog(db, { name: "Team" }, ACTOR);
  await createCustomTool(db, "team", draft("weather"), ACTOR);
});

describe("a renamed tool's history", () => {
  it("carries the history from before the rename", async () => {
    await updateTool(db, "team", "weather", { summary: "Weather now." }, ACTOR);
    await updateTool(db, "team", "weather", { name: "forecast" }, ACTOR);
    await updateTool(db, "team", "forecast", { enabled: false }, ACTOR);
    expect(await history("forecast")).toEqual(["disable forecast", "rename forecast", "update weather", "create weather"]);
  });

  it("follows several renames, each shown once, also back to an earlier name", async () => {
    await updateTool(db, "team", "weather", { name: "forecast" }, ACTOR);
    await updateTool(db, "team", "forecast", { name: "outlook" }, ACTOR);
    await updateTool(db, "team", "outlook", { name: "weather" }, ACTOR);
    expect(await history("weather")).toEqual(["rename weather", "rename outlook", "rename forecast", "create weather"]);
  });

  it("shows where an earlier tool of the same name went: deleted, or renamed away", async () => {
    await updateTool(db, "team", "weather", { name: "forecast" }, ACTOR);
    await createCustomTool(db, "team", draft("weather"), ACTOR);
    expect(await history("weather")).toEqual(["create weather", "rename weather", "create weather"]);
    const renamedAway = (await listToolHistory(db, "team", "weather"))[1];
    expect(renamedAway).toMatchObject({ before: { name: "weather" }, after: { name: "forecast" } });

    await deleteTool(db, "team", "weather", ACTOR);
    await createCustomTool(db, "team", draft("weather"), ACTOR);
    expect(await history("weather")).toEqual(["create weather", "delete weather", "create weather", "rename weather", "create weather"]);
    // The tool now called forecast has its own history, which the new weather's does not take over.
    expect(await history("forecast")).toEqual(["rename forecast", "create weather"]);
  });
});

/** Makes agent plan (base tool, exact and glob permission patterns), a model rule and an override name `tool`. */
async function referTo(tool: string) {
  const plan = await getAgent(db, "team", "plan");
  await saveAgent(
    db,
    "team",
    {
      ...plan,
      baseTools: [...plan.baseTools, tool],
      permissions: [...plan.permissions, { pattern: tool, action: "ask" }, { pattern: "weath*", action: "deny" }],
    },
    ACTOR,
    "plan",
  );
  const rules = await getRules(db, "team");
  await saveRules(
    db,
    "team",
    {
      modelRules: [...rules.modelRules, { id: "no-weather", name: "No weather for mini", include: ["*-mini"], exclude: [], enable: [], disable: [tool] }],
      overrides: [{ tool, models: ["gpt-5"], summary: "Weather, briefly." }],
    },
    ACTOR,
  );
}

/** Saving agent plan and the rules, edited: what a person does next on those pages. */
async function editAgentAndRules() {
  const plan = await getAgent(db, "team", "plan");
  await saveAgent(db, "team", { ...plan, description: "Plans, still." }, ACTOR, "plan");
  const rules = await getRules(db, "team");
  await saveRules(db, "team", { modelRules: rules.modelRules.map((rule) => ({ ...rule, name: `${rule.name}.` })), overrides: rules.overrides }, ACTOR);
}

describe("renaming a tool that the catalog refers to by name", () => {
  beforeEach(() => referTo("weather"));

  it("carries the agents' base tools and exact permission patterns, the rules and overrides, in one revision", async () => {
    const revision = (await getCatalog(db, "team")).revision;
    await updateTool(db, "team", "weather", { name: "forecast" }, ACTOR);
    expect((await getCatalog(db, "team")).revision).toBe(revision + 1);

    const plan = await getAgent(db, "team", "plan");
    expect(plan.baseTools).toContain("forecast");
    expect(plan.baseTools).not.toContain("weather");
    expect(plan.permissions.slice(-2)).toEqual([
      { pattern: "forecast", action: "ask" },
      { pattern: "weath*", action: "deny" },
    ]);
    const rules = await getRules(db, "team");
    expect(rules.modelRules.at(-1)?.disable).toEqual(["forecast"]);
    expect(rules.overrides).toEqual([{ tool: "forecast", models: ["gpt-5"], summary: "Weather, briefly." }]);

    const changes = (await listAudit(db, "team")).filter((entry) => entry.revision === revision + 1);
    expect(changes.map((entry) => `${entry.subjectKind} ${entry.subject}`).sort()).toEqual([
      "agent plan",
      "model-rule modelRules",
      "override overrides",
      "tool forecast",
      "tool weather",
    ]);
  });

  it("leaves the agent and the rules editable afterwards", async () => {
    await updateTool(db, "team", "weather", { name: "forecast" }, ACTOR);
    await expect(editAgentAndRules()).resolves.toBeUndefined();
  });

  it("carries conversations' tool history, keeping each name once", async () => {
    const one = await createConversation(db, { catalogId: "team", model: "gpt-5", agent: "plan" });
    const two = await createConversation(db, { catalogId: "team", model: "gpt-5", agent: "plan" });
    await addToHistory(db, one.id, ["read", "weather", "grep"]);
    await addToHistory(db, two.id, ["forecast", "weather"]);
    await updateTool(db, "team", "weather", { name: "forecast" }, ACTOR);
    expect((await getConversation(db, one.id)).history).toEqual(["read", "forecast", "grep"]);
    expect((await getConversation(db, two.id)).history).toEqual(["forecast"]);
  });
});

describe("deleting a custom tool that the catalog refers to by name", () => {
  beforeEach(() => referTo("weather"));

  it("removes the references in the delete's revision, with an audit entry per agent and rules part, and lists them", async () => {
    const revision = (await getCatalog(db, "team")).revision;
    const plainPlan = await getAgent(db, "team", "plan");
    const result = await deleteTool(db, "team", "weather", ACTOR);
    expect((await getCatalog(db, "team")).revision).toBe(revision + 1);

    const plan = await getAgent(db, "team", "plan");
    expect(plan.baseTools).not.toContain("weather");
    expect(plan.permissions).toEqual(plainPlan.permissions.filter((rule) => rule.pattern !== "weather"));
    expect(plan.permissions.at(-1)).toEqual({ pattern: "weath*", action: "deny" });
    const rules = await getRules(db, "team");
    expect(rules.modelRules.at(-1)).toMatchObject({ id: "no-weather", disable: [] });
    expect(rules.overrides).toEqual([]);

    const changes = (await listAudit(db, "team")).filter((entry) => entry.revision === revision + 1);
    expect(changes.map((entry) => `${entry.action} ${entry.subjectKind} ${entry.subject}`).sort()).toEqual([
      "delete tool weather",
      "update agent plan",
      "update model-rule modelRules",
      "update override overrides",
    ]);
    expect(result).toEqual({
      deleted: "weather",
      revision: revision + 1,
      references: {
        agents: ["plan"],
        modelRules: [{ id: "no-weather", name: "No weather for mini" }],
        overrides: [{ tool: "weather", models: ["gpt-5"], summary: "Weather, briefly." }],
      },
    });
  });

  it("leaves the agent and the rules editable afterwards", async () => {
    await deleteTool(db, "team", "weather", ACTOR);
    await expect(editAgentAndRules()).resolves.toBeUndefined();
  });

  it("lists no references when nothing names the tool", async () => {
    await createCustomTool(db, "team", draft("lonely"), ACTOR);
    expect((await deleteTool(db, "team", "lonely", ACTOR)).references).toEqual({ agents: [], modelRules: [], overrides: [] });
  });
});

describe("tools that leave with their source", () => {
  const sync = (names: string[]) =>
    syncSourceTools(db, "team", [{ source: "mcp", sourceRef: "notes", drafts: names.map((name) => ({ ...draft(name), tags: [] })) }], ACTOR);

  beforeEach(async () => {
    await sync(["notes__weather"]);
    await referTo("notes__weather");
  });

  it("a tool the source no longer lists stays, unregistered, and what names it stays valid", async () => {
    await sync([]);
    expect((await getAgent(db, "team", "plan")).baseTools).toContain("notes__weather");
    await expect(editAgentAndRules()).resolves.toBeUndefined();
  });

  it("a removed source's tools are deleted with what names them, in one revision", async () => {
    const revision = (await getCatalog(db, "team")).revision;
    await deleteSourceTools(db, "team", "mcp", "notes", ACTOR);
    expect((await getCatalog(db, "team")).revision).toBe(revision + 1);
    expect((await getAgent(db, "team", "plan")).baseTools).not.toContain("notes__weather");
    expect((await getRules(db, "team")).overrides).toEqual([]);
    await expect(editAgentAndRules()).resolves.toBeUndefined();
  });
});
