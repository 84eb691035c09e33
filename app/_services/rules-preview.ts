import "server-only";
import type { Db } from "@/db/client";
import { ToolshedError } from "@/lib/errors";
import { computeToolList, type ToolListRequest } from "@/lib/pipeline/tool-list";
import type { ModelRule } from "@/lib/rules/model-rules";
import { toolListChange } from "@/lib/rules/tool-name-check";
import { validateModelRules } from "@/lib/rules/validate";
import { catalogState } from "./catalog-states";

/**
 * What a draft of the model rules would do to the tool list a model and agent are handed, before
 * it is saved: the Simulator's pipeline run on the catalog as it is now, once with its saved rules
 * and once with the draft in their place. Nothing is written. A draft the save would refuse is
 * refused the same way, with its problems.
 */
export async function previewModelRules(db: Db, catalogId: string, modelRules: ModelRule[], request: ToolListRequest) {
  const state = await catalogState(db, catalogId);
  const problems = validateModelRules(modelRules, new Set(state.tools.map((tool) => tool.name)));
  if (problems.length > 0) throw ToolshedError.fromFieldErrors(problems, "The model rules have problems");
  const names = (rules: ModelRule[]) => computeToolList({ ...state, rules: { ...state.rules, modelRules: rules } }, request).final.map((tool) => tool.name);
  return { revision: state.revision, model: request.model, agent: request.agent, ...toolListChange(names(state.rules.modelRules), names(modelRules)) };
}
