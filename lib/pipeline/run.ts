import { inSpan } from "../observability/tracing";
import { Lru } from "../tools/lru";
import { aggregateVerdict } from "./aggregate";
import { conditionsScreen } from "./conditional";
import { applyDefinitionOverrides } from "./definition-overrides";
import { applyDelegation } from "./delegation";
import { finalize } from "./final";
import { modelRulesScreen } from "./model-rules";
import { permissionsScreen } from "./permissions";
import { providerCapabilitiesScreen } from "./provider-capabilities";
import type { ToolScreen } from "./screening";
import type { PipelineContext, PipelineResult, PipelineTool, Stage, StageName, ToolNote, TraceEntry } from "./types";

/** The stages that look at each tool on its own, in order: what they make of a tool is remembered per tool (see fatesFor). */
const SCREENS: [StageName, (ctx: PipelineContext) => ToolScreen][] = [
  ["aggregate", () => aggregateVerdict],
  ["model-rules", modelRulesScreen],
  ["provider-capabilities", providerCapabilitiesScreen],
  ["conditional", conditionsScreen],
  ["permissions", permissionsScreen],
];

/** The stages after them, which look at the list as a whole (delegation) or remember their own work per tool. */
const LIST_STAGES: [StageName, Stage][] = [
  ["delegation", applyDelegation],
  ["definition-overrides", applyDefinitionOverrides],
];

/** Computes the tool list one model and agent see, and why every other tool is missing or changed. A span when traced. */
export function runPipeline(tools: readonly PipelineTool[], ctx: PipelineContext): PipelineResult {
  return inPipelineSpan(tools, ctx, () => runStages(tools, ctx));
}

/** The span of one pipeline run, however it is computed (stage by stage, or from a ledger). */
export function inPipelineSpan<T>(tools: readonly PipelineTool[], ctx: PipelineContext, run: () => T): T {
  const attributes = { "toolshed.catalog": ctx.catalogId, "toolshed.model": ctx.modelId, "toolshed.agent": ctx.agent.name, "toolshed.tools": tools.length };
  return inSpan("toolshed.pipeline", attributes, run);
}

function runStages(tools: readonly PipelineTool[], ctx: PipelineContext): PipelineResult {
  const screened = screenAll(tools, ctx);
  const trace = screened.trace;
  let current = screened.tools;
  for (const [stage, run] of LIST_STAGES) {
    const result = run(current, ctx);
    current = result.tools;
    trace.push({ stage, removed: result.removed, changed: result.changed, remaining: current.length });
  }
  const final = finalize(current);
  trace.push({ stage: "final", removed: final.removed, changed: final.changed, remaining: final.tools.length });
  return { tools: final.tools, trace };
}

/**
 * What the per-tool stages make of one tool: where it is removed and why, or the tool they hand
 * on; and what each stage said it changed. It depends on the tool and the context alone.
 */
export interface Fate {
  removedAt?: number;
  note?: ToolNote;
  kept?: PipelineTool;
  changed: readonly { stage: number; note: ToolNote }[];
}

const NOTHING_CHANGED: Fate["changed"] = Object.freeze([]);

function fateOf(tool: PipelineTool, screens: readonly ToolScreen[]): Fate {
  let current = tool;
  let changed = NOTHING_CHANGED;
  for (let stage = 0; stage < screens.length; stage++) {
    const verdict = screens[stage](current);
    if (verdict === undefined) continue;
    if ("removed" in verdict) return { removedAt: stage, note: Object.freeze({ name: current.name, reason: verdict.removed }), changed };
    changed = [...changed, { stage, note: Object.freeze({ name: current.name, reason: verdict.changed }) }];
    current = verdict.kept;
  }
  return { kept: current, changed };
}

/**
 * The per-tool stages over the whole list, with their trace. A tool a new catalog revision leaves
 * unchanged keeps its object (db/queries/catalog-state.ts), and the stages hand it on as the same
 * object as before (see screenerFor), so whatever later stages derived from it (its final
 * definition, formatted tool, tokens, candidate) is reused.
 */
function screenAll(tools: readonly PipelineTool[], ctx: PipelineContext): { tools: PipelineTool[]; trace: TraceEntry[] } {
  const fateOfTool = screenerFor(ctx);
  const removed: ToolNote[][] = SCREENS.map(() => []);
  const changed: ToolNote[][] = SCREENS.map(() => []);
  const kept: PipelineTool[] = [];
  for (const tool of tools) {
    const fate = fateOfTool(tool);
    if (fate.kept !== undefined) kept.push(fate.kept);
    else removed[fate.removedAt!].push(fate.note!);
    for (const { stage, note } of fate.changed) changed[stage].push(note);
  }
  let remaining = tools.length;
  const trace = SCREENS.map(([stage], index): TraceEntry => {
    remaining -= removed[index].length;
    return { stage, removed: removed[index], changed: changed[index], remaining };
  });
  return { tools: kept, trace };
}

/**
 * The per-tool stages for one tool in this context, with what they make of a frozen tool
 * remembered when they hand on a changed copy of it: the copy stays the same object, so what later
 * stages derive from it is reused. A tool handed on as it is, or removed, is screened again instead
 * (under a microsecond): remembering every tool of a 50,000-tool catalog cost ≈ 4 MB per
 * model/agent combination.
 */
export function screenerFor(ctx: PipelineContext): (tool: PipelineTool) => Fate {
  const screens = SCREENS.map(([, make]) => make(ctx));
  const fates = fatesFor(ctx);
  return (tool) => {
    if (!Object.isFrozen(tool)) return fateOf(tool, screens);
    const remembered = fates.get(tool);
    if (remembered !== undefined) return remembered;
    const fate = fateOf(tool, screens);
    if (fate.kept !== undefined && fate.kept !== tool) fates.set(tool, fate);
    return fate;
  };
}

/** The names of the per-tool stages, in order: the first entries of every trace. */
export const SCREEN_STAGES: readonly StageName[] = SCREENS.map(([stage]) => stage);

/** Contexts remembered: every model and agent combination of a few catalogs. */
const CONTEXTS_REMEMBERED = 64;
const fatesByContext = new Lru<string, WeakMap<PipelineTool, Fate>>({ maxEntries: CONTEXTS_REMEMBERED });

/** Where the fates of frozen tools are remembered: under everything of the context the per-tool stages read. */
function fatesFor(ctx: PipelineContext): WeakMap<PipelineTool, Fate> {
  const { modelId, provider, agent, mode, flags, modelRules, providers, searchServiceConfigured } = ctx;
  const key = JSON.stringify([modelId, provider ?? null, agent.name, agent.permissions, mode, flags, modelRules, providers, searchServiceConfigured]);
  return fatesByContext.getOrCreate(key, () => new WeakMap());
}
