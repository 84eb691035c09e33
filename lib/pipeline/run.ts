import { inSpan } from "../observability/tracing";
import { aggregate } from "./aggregate";
import { applyConditions } from "./conditional";
import { applyDefinitionOverrides } from "./definition-overrides";
import { applyDelegation } from "./delegation";
import { finalize } from "./final";
import { applyModelRules } from "./model-rules";
import { applyPermissions } from "./permissions";
import { applyProviderCapabilities } from "./provider-capabilities";
import type { PipelineContext, PipelineResult, PipelineTool, Stage, StageName, TraceEntry } from "./types";

const STAGES: [StageName, Stage][] = [
  ["aggregate", aggregate],
  ["model-rules", applyModelRules],
  ["provider-capabilities", applyProviderCapabilities],
  ["conditional", applyConditions],
  ["permissions", applyPermissions],
  ["delegation", applyDelegation],
  ["definition-overrides", applyDefinitionOverrides],
];

/** Computes the tool list one model and agent see, and why every other tool is missing or changed. A span when traced. */
export function runPipeline(tools: PipelineTool[], ctx: PipelineContext): PipelineResult {
  const attributes = { "toolshed.catalog": ctx.catalogId, "toolshed.model": ctx.modelId, "toolshed.agent": ctx.agent.name, "toolshed.tools": tools.length };
  return inSpan("toolshed.pipeline", attributes, () => runStages(tools, ctx));
}

function runStages(tools: PipelineTool[], ctx: PipelineContext): PipelineResult {
  const trace: TraceEntry[] = [];
  let current = tools;
  for (const [stage, run] of STAGES) {
    const result = run(current, ctx);
    current = result.tools;
    trace.push({ stage, removed: result.removed, changed: result.changed, remaining: current.length });
  }
  const final = finalize(current);
  trace.push({ stage: "final", removed: final.removed, changed: final.changed, remaining: final.tools.length });
  return { tools: final.tools, trace };
}
