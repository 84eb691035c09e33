import { pathToFileURL } from "node:url";
import { createPipelineContext } from "../lib/pipeline/context";
import { runPipeline } from "../lib/pipeline/run";
import type { PipelineContext, PipelineTool } from "../lib/pipeline/types";
import { DEFAULT_AGENTS, type Agent } from "../lib/rules/agents";
import { DEFAULT_MODEL_RULES, type ModelRule } from "../lib/rules/model-rules";
import type { DefinitionOverride } from "../lib/rules/overrides";
import { BUILTIN_TOOLS } from "../lib/tools/builtin";
import type { ToolSource } from "../lib/tools/types";
import { percentile } from "./metrics";
import { seededRandom } from "./synthetic";
import { fixed, markdownTable } from "./table";

const PIPELINE_CATALOG_SIZES = [100, 1_000, 10_000] as const;
const WARM_UP = 20;
const REQUESTS = 300;
const MODELS = ["gpt-5", "gpt-5-mini", "gpt-4.1", "gpt-oss-120b", "claude-sonnet-4-5", "gemini-2.5-pro", "llama-3.3-70b"];
/** Large catalogs are mostly MCP servers' tools; skills and team-made tools are the minority. */
const SOURCE_MIX: [ToolSource, number][] = [
  ["mcp", 0.75],
  ["custom", 0.1],
  ["plugin", 0.12],
  ["skill", 0.03],
];

function pickSource(roll: number): ToolSource {
  let cumulative = 0;
  for (const [source, share] of SOURCE_MIX) {
    cumulative += share;
    if (roll < cumulative) return source;
  }
  return SOURCE_MIX[0][0];
}

interface PipelineLatency {
  tools: number;
  requests: number;
  p50Ms: number;
  p95Ms: number;
  /** Mean size of the final list, to show the requests did real filtering. */
  meanFinalTools: number;
}

/** The built-ins plus generated custom, plugin, MCP and skill tools, some disabled or unregistered. */
function syntheticPipelineCatalog(size: number, seed = 11): PipelineTool[] {
  const random = seededRandom(seed);
  const builtins: PipelineTool[] = BUILTIN_TOOLS.map((tool) => ({ ...tool, source: "builtin", enabled: true, registered: true }));
  const extras = Array.from({ length: Math.max(0, size - builtins.length) }, (_, index): PipelineTool => {
    const source = pickSource(random());
    const server = Math.floor(random() * 40);
    const name = source === "mcp" ? `mcp_server${server}_action${index}` : `${source}_tool_${index}`;
    const roll = random();
    return {
      name,
      summary: `Synthetic ${source} tool ${index} for benchmarking.`,
      description: `Synthetic ${source} tool number ${index}. `.repeat(8),
      inputSchema: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
      source,
      enabled: roll > 0.05,
      registered: roll < 0.05 || roll > 0.07,
      tags: ["synthetic"],
      requires: roll > 0.99 ? { capability: "web_search" } : {},
    };
  });
  return [...builtins, ...extras];
}

function syntheticRules(catalog: PipelineTool[]): { modelRules: ModelRule[]; overrides: DefinitionOverride[]; agents: Agent[] } {
  const sample = (step: number) => catalog.filter((_, index) => index % step === 0).map((tool) => tool.name);
  const modelRules: ModelRule[] = [
    ...DEFAULT_MODEL_RULES,
    { id: "small-models", name: "Small models get fewer tools", include: ["*-mini", "*-nano", "*flash*"], exclude: [], enable: [], disable: sample(7) },
    { id: "claude-extras", name: "Claude extras", include: ["claude-"], exclude: ["haiku"], enable: sample(14), disable: [] },
  ];
  const overrides: DefinitionOverride[] = sample(50).map((tool, index) => ({
    tool,
    models: index % 2 === 0 ? [] : ["gpt-5*"],
    description: `Rewritten description of ${tool}.`,
  }));
  const reviewer: Agent = {
    name: "reviewer",
    mode: "all",
    description: "Reviews changes.",
    permissions: [
      { pattern: "*", action: "allow" },
      { pattern: "mcp_server1*", action: "deny" },
      { pattern: "mcp_*_action1*", action: "ask" },
      { pattern: "plugin_*", action: "ask" },
      { pattern: "skill:skill_tool_1*", action: "deny" },
      { pattern: "task:explore", action: "deny" },
      { pattern: "bash", action: "ask" },
    ],
    baseTools: ["read", "grep"],
  };
  return { modelRules, overrides, agents: [...DEFAULT_AGENTS, reviewer] };
}

function requestContexts(catalog: PipelineTool[]): PipelineContext[] {
  const { modelRules, overrides, agents } = syntheticRules(catalog);
  return MODELS.flatMap((modelId) =>
    ["build", "plan", "explore", "reviewer"].map((agentName) =>
      createPipelineContext({ catalogId: "bench", modelId, agentName, agents, modelRules, overrides, flags: ["experimental.lsp"] }),
    ),
  );
}

/** Latency of one runPipeline call per request, across models and agents, per catalog size. */
function measurePipeline(sizes: readonly number[] = PIPELINE_CATALOG_SIZES, requests = REQUESTS): PipelineLatency[] {
  return sizes.map((size) => {
    const catalog = syntheticPipelineCatalog(size);
    const contexts = requestContexts(catalog);
    for (let index = 0; index < WARM_UP; index++) runPipeline(catalog, contexts[index % contexts.length]);
    const samples: number[] = [];
    let finalTools = 0;
    for (let index = 0; index < requests; index++) {
      const start = performance.now();
      const result = runPipeline(catalog, contexts[index % contexts.length]);
      samples.push(performance.now() - start);
      finalTools += result.tools.length;
    }
    return {
      tools: catalog.length,
      requests,
      p50Ms: percentile(samples, 50),
      p95Ms: percentile(samples, 95),
      meanFinalTools: finalTools / requests,
    };
  });
}

export function pipelineSection(): string {
  const rows = measurePipeline().map((figures) => [
    figures.tools.toLocaleString("en-US"),
    fixed(figures.p50Ms, 3),
    fixed(figures.p95Ms, 3),
    fixed(figures.meanFinalTools, 0),
  ]);
  return [
    `${REQUESTS} requests per size after ${WARM_UP} warm-up runs, rotating ${MODELS.length} models × 4 agents ` +
      "(default rules plus two extra model rules, overrides on every 50th tool, an agent with wildcard permissions).",
    "",
    markdownTable(["catalog tools", "p50 ms", "p95 ms", "tools in final list (mean)"], rows),
  ].join("\n");
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(pipelineSection());
}
