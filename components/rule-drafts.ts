import type { ModelRule } from "@/lib/rules/model-rules";
import type { DefinitionOverride } from "@/lib/rules/overrides";
import { splitList } from "./field-errors";

/** A model rule as its form holds it: its lists as the comma-separated text typed. */
export interface ModelRuleDraft {
  id: string;
  name: string;
  include: string;
  exclude: string;
  enable: string;
  disable: string;
}

export const ruleToDraft = (rule: ModelRule): ModelRuleDraft => ({
  id: rule.id,
  name: rule.name,
  include: rule.include.join(", "),
  exclude: rule.exclude.join(", "),
  enable: rule.enable.join(", "),
  disable: rule.disable.join(", "),
});

export const ruleFromDraft = (draft: ModelRuleDraft): ModelRule => ({
  id: draft.id,
  name: draft.name.trim(),
  include: splitList(draft.include),
  exclude: splitList(draft.exclude),
  enable: splitList(draft.enable),
  disable: splitList(draft.disable),
});

/** A definition override as its form holds it; an empty summary or description is none. */
export interface OverrideDraft {
  tool: string;
  models: string;
  summary: string;
  description: string;
}

export const overrideToDraft = (override: DefinitionOverride): OverrideDraft => ({
  tool: override.tool,
  models: override.models.join(", "),
  summary: override.summary ?? "",
  description: override.description ?? "",
});

/** The description keeps its own spacing (it may be laid out); the rest is trimmed. */
export const overrideFromDraft = (draft: OverrideDraft): DefinitionOverride => ({
  tool: draft.tool.trim(),
  models: splitList(draft.models),
  ...(draft.summary.trim() ? { summary: draft.summary.trim() } : {}),
  ...(draft.description.trim() ? { description: draft.description } : {}),
});
