import { z } from "zod";
import { safeName } from "../safe-text";
import { compileModelPattern } from "./patterns";

/**
 * Which tools a family of models gets. Rules apply in order and a later rule's decision about a
 * tool overrides an earlier one, so general rules come first and specialisations after them.
 * A rule matches a model when any `include` pattern matches and no `exclude` pattern does
 * (model-pattern semantics, see patterns.ts). Within one rule `disable` beats `enable`.
 */
export interface ModelRule {
  id: string;
  name: string;
  include: string[];
  exclude: string[];
  /** Keeps these tools (if the catalog offers them), undoing an earlier rule's `disable`. */
  enable: string[];
  disable: string[];
}

export const ModelRuleSchema = z.object({
  id: safeName().min(1).max(64),
  name: safeName().min(1).max(120),
  include: z.array(safeName()).max(100),
  exclude: z.array(safeName()).max(100),
  enable: z.array(safeName()).max(200),
  disable: z.array(safeName()).max(200),
}) satisfies z.ZodType<ModelRule>;

/**
 * The source design: models that prefer patches (GPT models other than the open-weight `oss`
 * ones and the older gpt-4 generation) edit through `apply_patch`; every other model edits
 * through `edit`/`write`. Offering only one editing style stops the model wavering between two,
 * plays to what it was trained on, and saves context. The catch-all comes first so the patch
 * rule overrides it, and the trace names whichever rule decided.
 */
export const DEFAULT_MODEL_RULES: ModelRule[] = [
  {
    id: "edit-based-editing",
    name: "Edit-based editing (every model)",
    include: ["*"],
    exclude: [],
    enable: ["edit", "write"],
    disable: ["apply_patch"],
  },
  {
    id: "patch-preferring-gpt",
    name: "Patch-preferring GPT models",
    include: ["gpt-"],
    exclude: ["oss", "gpt-4"],
    enable: ["apply_patch"],
    disable: ["edit", "write"],
  },
];

const quoteList = (patterns: string[]) => patterns.map((pattern) => `"${pattern}"`).join(", ");

/**
 * Whether `rule` applies to `modelId`, with the reason phrased for the trace, e.g.
 * `gpt-5 matches "gpt-"; excludes "oss", "gpt-4" don't match`. Undefined when it does not apply.
 */
export function explainModelRuleMatch(rule: ModelRule, modelId: string): string | undefined {
  const include = rule.include.find((pattern) => compileModelPattern(pattern)(modelId));
  if (include === undefined) return undefined;
  if (rule.exclude.some((pattern) => compileModelPattern(pattern)(modelId))) return undefined;
  const excludes = rule.exclude.length === 0 ? "" : `; excludes ${quoteList(rule.exclude)} don't match`;
  return `${modelId} matches "${include}"${excludes}`;
}
