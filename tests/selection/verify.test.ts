import { describe, expect, it } from "vitest";
import { computeToolList } from "../../lib/pipeline/tool-list";
import { registryView, rejectionReason, verifyNames } from "../../lib/selection/verify";
import { demoCatalogState, viewFor } from "../support/catalog-state";

const CLAUDE = "claude-sonnet-4-5";

describe("registryView", () => {
  it("holds every catalog tool, the visible ones, and the first stage that removed each other one", () => {
    const state = demoCatalogState();
    const list = computeToolList(state, { model: CLAUDE, agent: "plan" });
    const view = registryView(state.tools, list);

    expect(view.all.size).toBe(state.tools.length);
    expect([...view.visible.keys()]).toEqual(list.final.map((tool) => tool.name));
    expect(view.visible.has("read")).toBe(true);
    expect(view.visible.has("bash")).toBe(false);
    expect(view.removedBy.get("bash")).toMatch(/^removed at permissions: /);
    expect(view.removedBy.get("lsp")).toMatch(/^removed at conditional: .*experimental\.lsp/);
    expect(view.removedBy.has("read")).toBe(false);
  });

  it("keeps the first removal when a name is removed twice (a duplicate tool in the catalog)", () => {
    const view = registryView([], {
      final: [],
      trace: [
        { stage: "aggregate", removed: [{ name: "x", reason: "first" }], changed: [], remaining: 0 },
        { stage: "permissions", removed: [{ name: "x", reason: "second" }], changed: [], remaining: 0 },
      ],
    });
    expect(view.removedBy.get("x")).toBe("removed at aggregate: first");
  });
});

describe("rejectionReason and verifyNames", () => {
  it("lets a visible tool pass with its final definition", () => {
    const view = viewFor(demoCatalogState(), { model: CLAUDE, agent: "build" });
    expect(rejectionReason("github_create_issue", view)).toBeUndefined();

    const { passed, rejected } = verifyNames(["github_create_issue"], view);
    expect(rejected).toEqual([]);
    expect(passed).toHaveLength(1);
    expect(passed[0]).toBe(view.visible.get("github_create_issue"));
    expect(passed[0].inputSchema.properties).toHaveProperty("title");
  });

  it("rejects a deleted tool and an invented name as not in the catalog", () => {
    const view = viewFor(demoCatalogState({ drop: ["slack_post_message"] }), { model: CLAUDE, agent: "build" });
    const { passed, rejected } = verifyNames(["slack_post_message", "github_make_coffee"], view);
    expect(passed).toEqual([]);
    expect(rejected).toEqual([
      { name: "slack_post_message", reason: expect.stringMatching(/^not registered: not in the catalog/) },
      { name: "github_make_coffee", reason: expect.stringMatching(/^not registered: not in the catalog/) },
    ]);
  });

  it("rejects a tool disabled in the catalog", () => {
    const view = viewFor(demoCatalogState({ patch: { slack_post_message: { enabled: false } } }), { model: CLAUDE, agent: "build" });
    expect(rejectionReason("slack_post_message", view)).toBe("not registered: disabled in the catalog");
  });

  it("rejects a tool whose source is unregistered", () => {
    const view = viewFor(demoCatalogState({ patch: { slack_post_message: { registered: false } } }), { model: CLAUDE, agent: "build" });
    expect(rejectionReason("slack_post_message", view)).toMatch(/^not registered/);
  });

  it("rejects a tool the plan agent's permissions hide, naming the deciding rule", () => {
    const state = demoCatalogState();
    const plan = viewFor(state, { model: CLAUDE, agent: "plan" });
    const reason = rejectionReason("bash", plan);
    expect(reason).toMatch(/^removed at permissions/);
    expect(reason).toContain('agent "plan" denies bash');
    expect(reason).toContain('"bash" → deny');

    // The same tool passes for the build agent: the rejection is about this agent, not the catalog.
    expect(rejectionReason("bash", viewFor(state, { model: CLAUDE, agent: "build" }))).toBeUndefined();
  });

  it("rejects a tool a model rule disables, naming the rule", () => {
    const view = viewFor(demoCatalogState(), { model: "gpt-5", agent: "build" });
    expect(rejectionReason("edit", view)).toMatch(/^removed at model-rules: model rule "Patch-preferring GPT models"/);
    expect(rejectionReason("apply_patch", view)).toBeUndefined();
  });

  it("collapses duplicates and keeps the order given, for passes and rejections alike", () => {
    const view = viewFor(demoCatalogState(), { model: CLAUDE, agent: "plan" });
    const { passed, rejected } = verifyNames(
      ["slack_post_message", "bash", "read", "invented_tool", "slack_post_message", "bash", "github_get_issue", "read"],
      view,
    );
    expect(passed.map((tool) => tool.name)).toEqual(["slack_post_message", "read", "github_get_issue"]);
    expect(rejected.map((rejection) => rejection.name)).toEqual(["bash", "invented_tool"]);
  });

  it("passes nothing and rejects nothing for no names", () => {
    const view = viewFor(demoCatalogState(), { model: CLAUDE, agent: "build" });
    expect(verifyNames([], view)).toEqual({ passed: [], rejected: [] });
  });
});
