import { DEMO_TOOLS } from "../../lib/demo";
import { computeToolList, type CatalogState, type ToolListRequest } from "../../lib/pipeline/tool-list";
import { DEFAULT_AGENTS, type Agent } from "../../lib/rules/agents";
import { DEFAULT_RULES } from "../../lib/rules/catalog-rules";
import type { SelectionInput, SelectionOutput, Selector } from "../../lib/selection/selector";
import { registryView, type RegistryView } from "../../lib/selection/verify";
import { BUILTIN_TOOLS } from "../../lib/tools/builtin";
import type { Tool } from "../../lib/tools/types";

/** The demo catalog as the registry holds it: the built-in tools plus the demo's custom tools. */
function demoCatalogTools(): Tool[] {
  return [
    ...BUILTIN_TOOLS.map(
      (tool): Tool => ({ ...tool, tags: [...tool.tags], requires: { ...tool.requires }, source: "builtin", enabled: true, registered: true }),
    ),
    ...DEMO_TOOLS.map((tool): Tool => ({ ...tool, tags: [...tool.tags], source: "custom", enabled: true, registered: true, requires: {} })),
  ];
}

/**
 * A catalog state over the demo catalog with the shipped rules and agents. `patch` changes single
 * tools by name (e.g. `{ slack_post_message: { enabled: false } }`); `drop` deletes tools outright.
 */
export function demoCatalogState(options: { patch?: Record<string, Partial<Tool>>; drop?: string[]; agents?: Agent[]; catalogId?: string } = {}): CatalogState {
  const drop = new Set(options.drop ?? []);
  const patch = options.patch ?? {};
  for (const name of [...drop, ...Object.keys(patch)]) {
    if (!demoCatalogTools().some((tool) => tool.name === name)) throw new Error(`fixture: no demo tool named ${name}`);
  }
  return {
    catalogId: options.catalogId ?? "demo",
    tools: demoCatalogTools()
      .filter((tool) => !drop.has(tool.name))
      .map((tool) => ({ ...tool, ...patch[tool.name] })),
    rules: DEFAULT_RULES,
    agents: options.agents ?? DEFAULT_AGENTS,
  };
}

/** The registry as one model and agent see it in `state`. */
export function viewFor(state: CatalogState, request: Omit<ToolListRequest, "format">): RegistryView {
  return registryView(state.tools, computeToolList(state, { ...request, format: "ai-sdk" }));
}

/** Test double: a selector that must not be consulted; it fails the test if it is. */
export function throwingSelectorDouble(): Selector & { calls: number } {
  const double = {
    id: "throwing-double",
    calls: 0,
    async select(): Promise<SelectionOutput> {
      double.calls++;
      throw new Error("the selector must not be called on this path");
    },
  };
  return double;
}

/**
 * Test double: a selector that answers with fixed names (scores descending), reporting as
 * `invented` those that are not among the candidates it was given, and recording every input.
 */
export function scriptedSelectorDouble(names: string[]): Selector & { inputs: SelectionInput[] } {
  const inputs: SelectionInput[] = [];
  return {
    id: "scripted-double",
    inputs,
    async select(input: SelectionInput): Promise<SelectionOutput> {
      inputs.push(input);
      const candidateNames = new Set(input.candidates.map((candidate) => candidate.name));
      const ranked = names
        .filter((name) => candidateNames.has(name))
        .map((name, index) => ({ name, score: 1 - index / 100 }))
        .slice(0, input.k);
      const invented = names.filter((name) => !candidateNames.has(name));
      return { ranked, selector: "scripted-double", raw: names, invented };
    },
  };
}

/**
 * Test double: a selector that returns whatever names it is told as if they were ranked
 * candidates, without checking them: a misbehaving selector, to prove verification downstream.
 */
export function unverifiedSelectorDouble(names: string[]): Selector & { inputs: SelectionInput[] } {
  const inputs: SelectionInput[] = [];
  return {
    id: "unverified-double",
    inputs,
    async select(input: SelectionInput): Promise<SelectionOutput> {
      inputs.push(input);
      const ranked = names.map((name, index) => ({ name, score: 1 - index / 100 }));
      return { ranked, selector: "unverified-double", raw: names, invented: [] };
    },
  };
}
