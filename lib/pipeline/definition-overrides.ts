import type { DefinitionOverride } from "../rules/overrides";
import { modelPatternTester } from "../rules/patterns";
import { defaultProblem } from "../rules/override-fields";
import type { InputSchema } from "../tools/types";
import { Lru } from "../tools/lru";
import type { DefinitionHook, PipelineContext, PipelineTool, StageResult, ToolNote } from "./types";

function overrideScope(override: DefinitionOverride, modelId: string, matchesModel: (pattern: string) => boolean): string | undefined {
  if (override.models.length === 0) return "for every model";
  const pattern = override.models.find(matchesModel);
  return pattern === undefined ? undefined : `for ${modelId}, matching "${pattern}"`;
}

/** Every provider requires the root of a tool's input schema to be an object schema. */
function isObjectSchema(schema: unknown): schema is InputSchema {
  return typeof schema === "object" && schema !== null && !Array.isArray(schema) && (schema as InputSchema).type === "object";
}

const fieldList = (fields: string[]) => fields.join(" and ");

/**
 * One override applied to a tool as it stands: its text, its parameter defaults (each into a copy
 * of the parameter's schema; one whose parameter the tool's source no longer has, or that no longer
 * fits the parameter's schema, is skipped and said so: the stored override stays as it is), its
 * annotations over any set before.
 */
function withOverride(tool: PipelineTool, override: DefinitionOverride): { tool: PipelineTool; fields: string[]; ignored: string[] } {
  const fields: string[] = [];
  const ignored: string[] = [];
  let next = tool;
  if (override.summary !== undefined || override.description !== undefined) {
    next = { ...next, summary: override.summary ?? next.summary, description: override.description ?? next.description };
    if (override.summary !== undefined) fields.push("summary");
    if (override.description !== undefined) fields.push("description");
  }
  const defaults = Object.entries(override.defaults ?? {}).filter(([name, value]) => {
    const problem = defaultProblem(tool.name, next.inputSchema, name, value);
    if (problem) ignored.push(`default of ${name} not applied: ${problem}`);
    return problem === undefined;
  });
  if (defaults.length > 0) {
    const properties = { ...next.inputSchema.properties };
    for (const [name, value] of defaults) properties[name] = { ...(properties[name] as Record<string, unknown>), default: value };
    next = { ...next, inputSchema: { ...next.inputSchema, properties }, argumentDefaults: { ...next.argumentDefaults, ...Object.fromEntries(defaults) } };
    fields.push(defaults.map(([name]) => `default of ${name}`).join(" and "));
  }
  const annotations = Object.entries(override.annotations ?? {}).filter(([, value]) => value !== undefined);
  if (annotations.length > 0) {
    next = { ...next, annotations: { ...next.annotations, ...Object.fromEntries(annotations) } };
    fields.push(`annotation${annotations.length === 1 ? "" : "s"} ${annotations.map(([key]) => key).join(", ")}`);
  }
  return { tool: next, fields, ignored };
}

/**
 * Stage 7: the catalog's definition overrides that apply to this model (in order, later ones
 * winning), then each plugin hook in turn. A hook that throws leaves the definition as it was
 * and says so in the trace rather than failing the whole request.
 */
export function applyDefinitionOverrides(tools: PipelineTool[], ctx: PipelineContext): StageResult {
  const outcomeOf = definitionOutcomes(ctx);
  if (outcomeOf === undefined) return { tools, removed: [], changed: [] };
  const changed: ToolNote[] = [];
  const result = tools.map((original) => {
    const outcome = outcomeOf(original);
    changed.push(...outcome.notes);
    return outcome.tool;
  });
  return { tools: result, removed: [], changed };
}

/**
 * Stage 7 for one tool at a time: what it makes of a tool, remembered for a frozen one; undefined
 * when no override applies to this model and there is no hook, so every tool passes unchanged.
 */
export function definitionOutcomes(ctx: PipelineContext): ((tool: PipelineTool) => Outcome) | undefined {
  const matchesModel = modelPatternTester(ctx.modelId);
  const applicable = new Map<string, { override: DefinitionOverride; scope: string }[]>();
  for (const override of ctx.overrides) {
    const scope = overrideScope(override, ctx.modelId, matchesModel);
    if (scope === undefined) continue;
    const list = applicable.get(override.tool) ?? [];
    list.push({ override, scope });
    applicable.set(override.tool, list);
  }
  const hooks = ctx.definitionHooks ?? [];
  if (applicable.size === 0 && hooks.length === 0) return undefined;
  const memo = outcomesFor(ctx, hooks);
  return (original) =>
    memo && Object.isFrozen(original)
      ? memoised(memo, original, () => outcomeOf(original, applicable, hooks, ctx))
      : outcomeOf(original, applicable, hooks, ctx);
}

/** What the stage makes of one tool: the tool as overridden and hooked, and what was said of it. */
export interface Outcome {
  tool: PipelineTool;
  notes: ToolNote[];
}

function outcomeOf(
  original: PipelineTool,
  applicable: ReadonlyMap<string, { override: DefinitionOverride; scope: string }[]>,
  hooks: readonly DefinitionHook[],
  ctx: PipelineContext,
): Outcome {
  const notes: ToolNote[] = [];
  let tool = original;
  for (const { override, scope } of applicable.get(tool.name) ?? []) {
    const applied = withOverride(tool, override);
    tool = applied.tool;
    for (const ignored of applied.ignored) notes.push({ name: tool.name, reason: `catalog override ${scope}: ${ignored}` });
    if (applied.fields.length > 0) notes.push({ name: tool.name, reason: `catalog override ${scope} replaces the ${fieldList(applied.fields)}` });
  }
  hooks.forEach((hook, index) => {
    const label = hook.name ? `plugin hook "${hook.name}"` : `plugin hook ${index + 1}`;
    let patch: ReturnType<typeof hook>;
    try {
      patch = hook(tool, ctx);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      notes.push({ name: tool.name, reason: `${label} failed (${message}); definition left unchanged` });
      return;
    }
    if (patch === undefined) return;
    // Plugins are plain JavaScript at run time: take only values a provider would accept.
    const accepted = {
      summary: typeof patch.summary === "string" ? patch.summary : undefined,
      description: typeof patch.description === "string" ? patch.description : undefined,
      inputSchema: isObjectSchema(patch.inputSchema) ? patch.inputSchema : undefined,
    };
    const offered = (["summary", "description", "inputSchema"] as const).filter((field) => patch[field] !== undefined);
    const fields = offered.filter((field) => accepted[field] !== undefined);
    const unusable = offered.filter((field) => accepted[field] === undefined);
    if (unusable.length > 0) {
      notes.push({ name: tool.name, reason: `${label} returned an unusable ${fieldList(unusable)}, ignored` });
    }
    if (fields.length === 0) return;
    tool = {
      ...tool,
      summary: accepted.summary ?? tool.summary,
      description: accepted.description ?? tool.description,
      inputSchema: accepted.inputSchema ?? tool.inputSchema,
    };
    notes.push({ name: tool.name, reason: `${label} rewrites the ${fieldList(fields)}` });
  });
  return { tool, notes };
}

const NO_HOOKS: readonly DefinitionHook[] = Object.freeze([]);
/** Contexts remembered per set of hooks: every model and agent combination of a few catalogs. */
const CONTEXTS_REMEMBERED = 64;
const outcomes = new WeakMap<readonly DefinitionHook[], Lru<string, WeakMap<PipelineTool, Outcome>>>();

/**
 * Where a frozen tool's outcome in this context is remembered, across catalog revisions: the same
 * tool object (an unchanged tool keeps it from one revision to the next, db/queries/catalog-state.ts)
 * under the same overrides, hooks and context comes out the same, as the hooks' contract says. The
 * hooks must be a frozen array (the app's stay the same while the local sources do); otherwise
 * nothing is remembered.
 */
function outcomesFor(ctx: PipelineContext, hooks: readonly DefinitionHook[]): WeakMap<PipelineTool, Outcome> | undefined {
  const set = hooks.length === 0 ? NO_HOOKS : hooks;
  if (!Object.isFrozen(set)) return undefined;
  let byContext = outcomes.get(set);
  if (byContext === undefined) {
    byContext = new Lru({ maxEntries: CONTEXTS_REMEMBERED });
    outcomes.set(set, byContext);
  }
  const { catalogId, modelId, provider, agent, agents, mode, flags, modelRules, providers, searchServiceConfigured, overrides } = ctx;
  const key = JSON.stringify([catalogId, modelId, provider, agent, agents, mode, flags, modelRules, providers, searchServiceConfigured, overrides]);
  return byContext.getOrCreate(key, () => new WeakMap());
}

/**
 * An outcome that changed the tool, or says something of it, is remembered, its tool frozen like the
 * one it came from, so that what later stages derive from it is reused. One that hands the tool on
 * as it is costs less to make again than to remember for every tool of a large catalog.
 */
function memoised(memo: WeakMap<PipelineTool, Outcome>, tool: PipelineTool, make: () => Outcome): Outcome {
  const remembered = memo.get(tool);
  if (remembered !== undefined) return remembered;
  const made = make();
  if (made.tool === tool && made.notes.length === 0) return made;
  const outcome = { tool: Object.freeze(made.tool), notes: made.notes };
  memo.set(tool, outcome);
  return outcome;
}
