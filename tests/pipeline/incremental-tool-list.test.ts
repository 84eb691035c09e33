import { describe, expect, it } from "vitest";
import { seededRandom } from "../../bench/synthetic";
import { computeToolList, freezeCatalogState, type CatalogState, type ToolList, type ToolListRequest } from "../../lib/pipeline/tool-list";
import type { DefinitionHook } from "../../lib/pipeline/types";
import { compilePermissions, DEFAULT_AGENTS, type Agent } from "../../lib/rules/agents";
import { DEFAULT_RULES } from "../../lib/rules/catalog-rules";
import { preselect } from "../../lib/selection/preselect";
import { runToolSearch } from "../../lib/selection/tool-search";
import { registryView } from "../../lib/selection/verify";
import type { Tool } from "../../lib/tools/types";
import { demoCatalogState, scriptedSelectorDouble } from "../support/catalog-state";

// After an edit, a frozen state's lists are made mostly from what was remembered of the tools the
// edit left unchanged (the per-tool stages' outcome, final definitions, formatted tools, token
// counts). Whatever a random sequence of edits does, every list must equal one computed afresh
// from an unfrozen copy, which nothing is remembered of.

const REQUESTS: ToolListRequest[] = [
  { model: "claude-sonnet-4-5", agent: "build" },
  { model: "gpt-5", agent: "plan", format: "openai" },
  { model: "gemini-2.5-pro", agent: "build", format: "anthropic" },
  { model: "gpt-4.1", agent: "careful", flags: ["experimental.lsp"] },
];

/** Asks before calls of some tools and denies others, by pattern, so edits move tools between the two. */
const careful = (extra: Agent["permissions"] = []): Agent => ({
  name: "careful",
  mode: "primary",
  description: "Asks before it writes.",
  permissions: [{ pattern: "*", action: "allow" }, { pattern: "ext_1*", action: "ask" }, { pattern: "ext_2*", action: "deny" }, ...extra],
  baseTools: ["read"],
});

const hook: DefinitionHook = (tool) => (tool.name.endsWith("7") ? { description: `${tool.description} (hooked)` } : undefined);

function extraTool(index: number, random: () => number): Tool {
  const kinds = ["custom", "custom", "custom", "skill", "mcp"] as const;
  return {
    name: `ext_${index}`,
    source: kinds[Math.floor(random() * kinds.length)],
    summary: `Extra tool ${index}`,
    description: random() < 0.2 ? `Does ${index}<!-- hidden -->` : `Does thing ${index}.`,
    inputSchema: { type: "object", properties: { value: { type: "string", description: `value ${index}` } } },
    enabled: random() > 0.1,
    registered: true,
    tags: ["extra"],
    requires: random() < 0.1 ? { mode: "plan" } : {},
  };
}

function initialState(random: () => number): CatalogState {
  const demo = demoCatalogState({ catalogId: "incremental" });
  return freezeCatalogState({
    ...demo,
    tools: [...demo.tools, ...Array.from({ length: 60 }, (_, index) => extraTool(index, random))],
    agents: [...DEFAULT_AGENTS, careful()],
    rules: { ...DEFAULT_RULES, overrides: [{ tool: "ext_3", models: [], description: "Overridden." }] },
    definitionHooks: Object.freeze([hook]),
  });
}

type Edit = (state: CatalogState, random: () => number, serial: number) => Partial<CatalogState>;

const withTool = (state: CatalogState, at: number, tool: Tool | undefined): Tool[] => {
  const tools = [...state.tools];
  if (tool === undefined) tools.splice(at, 1);
  else tools[at] = tool;
  return tools;
};
const pick = (state: CatalogState, random: () => number) => Math.floor(random() * state.tools.length);

const EDITS: Record<string, Edit> = {
  describe: (state, random, serial) => {
    const at = pick(state, random);
    return { tools: withTool(state, at, { ...state.tools[at], description: `Edited ${serial}.` }) };
  },
  rename: (state, random, serial) => {
    const at = pick(state, random);
    return { tools: withTool(state, at, { ...state.tools[at], name: `renamed_${serial}` }) };
  },
  toggle: (state, random) => {
    const at = pick(state, random);
    return { tools: withTool(state, at, { ...state.tools[at], enabled: !state.tools[at].enabled }) };
  },
  remove: (state, random) => ({ tools: withTool(state, pick(state, random), undefined) }),
  add: (state, random, serial) => {
    const tools = [...state.tools];
    tools.splice(pick(state, random), 0, extraTool(1000 + serial, random));
    return { tools };
  },
  permissions: (state, _random, serial) => ({
    agents: state.agents.map((agent) =>
      agent.name === "careful" ? careful([{ pattern: `ext_${serial % 10}*`, action: serial % 2 ? "deny" : "ask" }]) : agent,
    ),
  }),
  modelRule: (state, _random, serial) => ({
    rules: {
      ...state.rules,
      modelRules: [
        ...DEFAULT_RULES.modelRules,
        { id: `r${serial}`, name: `rule ${serial}`, include: ["gpt-*"], exclude: [], enable: [], disable: [`ext_${serial % 12}`] },
      ],
    },
  }),
};

/** The same state, unfrozen and with copies of every tool: nothing derived from it is remembered. */
function unfrozenCopy(state: CatalogState): CatalogState {
  return {
    ...state,
    tools: state.tools.map((tool) => structuredClone(tool)),
    agents: structuredClone(state.agents),
    definitionHooks: state.definitionHooks ? [...state.definitionHooks] : undefined,
  };
}

const plain = (list: ToolList) => JSON.parse(JSON.stringify({ tools: list.tools, final: list.final, trace: list.trace, tokens: list.tokens }));

describe("tool lists after edits of a frozen catalog state", () => {
  for (const seed of [1, 2, 3]) {
    it(`equal lists computed afresh, over 30 random edits (seed ${seed})`, () => {
      const random = seededRandom(seed);
      let state = initialState(random);
      const kinds = Object.keys(EDITS);
      const seen = new Set(state.tools.map((tool) => tool.name));
      for (let serial = 0; serial < 30; serial++) {
        for (const request of REQUESTS) registryView(state.tools, computeToolList(state, request));
        const kind = kinds[Math.floor(random() * kinds.length)];
        state = freezeCatalogState({ ...state, ...EDITS[kind](state, random, serial) }, state);
        const fresh = unfrozenCopy(state);
        for (const tool of state.tools) seen.add(tool.name);
        for (const request of REQUESTS) {
          const list = computeToolList(state, request);
          const expected = computeToolList(fresh, request);
          expect(plain(list), `${kind} #${serial}, ${request.model}/${request.agent}`).toEqual(plain(expected));
          const view = registryView(state.tools, list);
          const freshView = registryView(fresh.tools, expected);
          // Lookups first: a view's maps answer them from the latest view's before they are ever gone through.
          for (const name of seen) {
            expect(JSON.stringify(view.visible.get(name)), name).toBe(JSON.stringify(freshView.visible.get(name)));
            expect(JSON.stringify(view.all.get(name)), name).toBe(JSON.stringify(freshView.all.get(name)));
            expect(view.removedBy.get(name), name).toBe(freshView.removedBy.get(name));
          }
          expect([...view.visible.keys()]).toEqual([...freshView.visible.keys()]);
          expect([...view.removedBy]).toEqual([...freshView.removedBy]);
        }
      }
    });
  }

  it("give preselection and ToolSearch the candidates of lists computed afresh, over 40 random edits", async () => {
    const random = seededRandom(4);
    let state = initialState(random);
    const kinds = Object.keys(EDITS);
    const offered = async (of: CatalogState, request: ToolListRequest, revision: number) => {
      const selector = scriptedSelectorDouble(["read", "ext_5", "ext_11", "renamed_3"]);
      const messages = [{ role: "user" as const, content: "read the thing" }];
      const result = await preselect({ state: of, revision, request, messages, history: [], selector });
      const searcher = scriptedSelectorDouble(["ext_7", "read", "renamed_5"]);
      const view = registryView(of.tools, computeToolList(of, { ...request, format: "ai-sdk" }));
      const search = await runToolSearch({ query: "find the seventh", view, selector: searcher, messages, indexKey: `search-${revision}` });
      const found = { candidates: searcher.inputs[0].candidates, tools: search.tools, rejected: search.rejected };
      return {
        candidates: selector.inputs[0].candidates,
        names: result.candidates,
        tokens: result.tokens,
        selected: result.selected,
        toolSet: result.toolSet,
        found,
      };
    };
    for (let serial = 0; serial < 40; serial++) {
      for (const request of REQUESTS) await offered(state, request, serial);
      const kind = kinds[Math.floor(random() * kinds.length)];
      state = freezeCatalogState({ ...state, ...EDITS[kind](state, random, serial) }, state);
      for (const request of REQUESTS) {
        const expected = await offered(unfrozenCopy(state), request, serial + 1);
        expect(await offered(state, request, serial + 1), `${kind} #${serial}, ${request.model}/${request.agent}`).toEqual(expected);
      }
    }
  });

  it("never hands over a tool the agent may not use, and marks every one it must ask about", () => {
    const random = seededRandom(9);
    let state = initialState(random);
    const kinds = Object.keys(EDITS);
    for (let serial = 0; serial < 40; serial++) {
      computeToolList(state, REQUESTS[3]);
      const kind = serial % 2 === 0 ? "permissions" : kinds[Math.floor(random() * kinds.length)];
      state = freezeCatalogState({ ...state, ...EDITS[kind](state, random, serial) }, state);
      const agent = state.agents.find((each) => each.name === "careful")!;
      const decide = compilePermissions(agent.permissions);
      const byName = new Map(state.tools.map((tool) => [tool.name, tool]));
      for (const tool of computeToolList(state, REQUESTS[3]).final) {
        const stored = byName.get(tool.name)!;
        expect(stored.enabled && stored.registered && !stored.heldBack, tool.name).toBe(true);
        expect(decide(tool.name).action, tool.name).not.toBe("deny");
        expect(tool.needsApproval, tool.name).toBe(decide(tool.name).action === "ask");
      }
    }
  });
});
