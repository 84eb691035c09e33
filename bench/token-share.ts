import { DEMO_TOOLS } from "../lib/demo";
import { computeToolList, type CatalogState } from "../lib/pipeline/tool-list";
import { DEFAULT_AGENTS } from "../lib/rules/agents";
import { DEFAULT_RULES } from "../lib/rules/catalog-rules";
import { createLocalSelector } from "../lib/selection/local-selector";
import { preselect } from "../lib/selection/preselect";
import { BUILTIN_TOOLS } from "../lib/tools/builtin";
import type { Tool } from "../lib/tools/types";
import { EMPTY_INPUT_SCHEMA, summarize } from "../lib/tools/validate";
import type { LabelledSet } from "./labelledSet";
import { recallAtK, mean } from "./metrics";
import { fixed, markdownTable } from "./table";

const CASES = 200;
const K_VALUES = [5, 10] as const;

function catalogOf(name: string, custom: Omit<Tool, "source" | "enabled" | "registered" | "requires">[]): CatalogState {
  const tools: Tool[] = [
    ...BUILTIN_TOOLS.map((tool) => ({ ...tool, source: "builtin" as const, enabled: true, registered: true })),
    ...custom.map((tool) => ({ ...tool, source: "custom" as const, enabled: true, registered: true, requires: {} })),
  ];
  return { catalogId: name, tools, rules: DEFAULT_RULES, agents: DEFAULT_AGENTS };
}

/**
 * The turn's tool set (base + preselected + ToolSearch entry) against the whole visible list, in
 * tokens of the AI SDK format, with the recall of the set on labelled cases where there are labels.
 */
export async function tokenShareSection(set: LabelledSet): Promise<string> {
  const metatool = catalogOf(
    "metatool",
    set.tools.map((tool) => ({
      name: tool.name,
      summary: summarize(tool.description),
      description: tool.description,
      inputSchema: EMPTY_INPUT_SCHEMA,
      tags: [],
    })),
  );
  const demo = catalogOf(
    "demo",
    DEMO_TOOLS.map((tool) => ({ ...tool, tags: [...tool.tags] })),
  );
  const selector = createLocalSelector();
  const scenarios = [
    { label: "MetaTool (199 + 15 built-ins)", state: metatool, prompts: set.cases.slice(0, CASES) },
    { label: "demo (64 + 15 built-ins)", state: demo, prompts: DEMO_QUERIES.map((query, index) => ({ id: String(index), query, expected: [] as string[] })) },
  ];
  const rows: (string | number)[][] = [];
  for (const { label, state, prompts } of scenarios) {
    const visible = computeToolList(state, { model: "claude-sonnet-4-5", agent: "build" }).tokens.total;
    for (const k of K_VALUES) {
      const shares: number[] = [];
      const recalls: number[] = [];
      for (const entry of prompts) {
        const result = await preselect({
          state,
          revision: 0,
          request: { model: "claude-sonnet-4-5", agent: "build" },
          messages: [{ role: "user", content: entry.query }],
          history: [],
          k,
          selector,
        });
        shares.push(result.tokens.toolSet / result.tokens.visible);
        if (entry.expected.length > 0)
          recalls.push(
            recallAtK(
              result.toolSet.map((tool) => tool.name),
              entry.expected,
              result.toolSet.length,
            ),
          );
      }
      rows.push([label, k, visible, fixed(mean(shares) * visible, 0), `${fixed(mean(shares) * 100, 1)}%`, recalls.length ? fixed(mean(recalls), 3) : "n/a"]);
    }
  }
  return [
    `Agent build, model claude-sonnet-4-5, ai-sdk format, local selector; ${CASES} MetaTool cases, ${DEMO_QUERIES.length} demo requests.`,
    "",
    markdownTable(["catalog", "k", "visible list tokens", "turn set tokens (mean)", "share", "recall of the turn set"], rows),
  ].join("\n");
}

const DEMO_QUERIES = [
  "Open a GitHub issue for the failing login test",
  "Post the release notes to the #announcements Slack channel",
  "Which Linear tickets are assigned to me this sprint?",
  "Find a free hour with Dana next week and book a meeting",
  "How many orders did we get yesterday? Query the database",
  "Take a screenshot of the pricing page",
  "Upload the report to the shared drive",
  "Any new Sentry errors since the deploy?",
  "Refund the last payment of customer 42",
  "Will it rain in Lyon tomorrow?",
];
