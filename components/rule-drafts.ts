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

/** An annotation hint as its form holds it: its source's (empty), or set. */
export type HintDraft = "" | "true" | "false";
export const HINT_KEYS = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const;
type HintKey = (typeof HINT_KEYS)[number];

/** A definition override as its form holds it; an empty summary, description, defaults, title or hint is none. */
export interface OverrideDraft extends Record<HintKey, HintDraft> {
  tool: string;
  models: string;
  summary: string;
  description: string;
  /** The parameter defaults as a JSON object, e.g. `{"limit": 25}`. */
  defaults: string;
  title: string;
}

export const emptyOverrideDraft = (tool: string): OverrideDraft => ({
  tool,
  models: "",
  summary: "",
  description: "",
  defaults: "",
  title: "",
  ...(Object.fromEntries(HINT_KEYS.map((key) => [key, ""])) as Record<HintKey, HintDraft>),
});

const hintDraft = (value: boolean | undefined): HintDraft => (value === undefined ? "" : value ? "true" : "false");

export const overrideToDraft = (override: DefinitionOverride): OverrideDraft => ({
  ...emptyOverrideDraft(override.tool),
  models: override.models.join(", "),
  summary: override.summary ?? "",
  description: override.description ?? "",
  defaults: override.defaults ? JSON.stringify(override.defaults, null, 2) : "",
  title: override.annotations?.title ?? "",
  ...(Object.fromEntries(HINT_KEYS.map((key) => [key, hintDraft(override.annotations?.[key])])) as Record<HintKey, HintDraft>),
});

/** Why typed parameter defaults are not a JSON object, or undefined when they are (or are empty). */
export function defaultsDraftProblem(text: string): string | undefined {
  if (text.trim() === "") return undefined;
  try {
    const value: unknown = JSON.parse(text);
    if (value !== null && typeof value === "object" && !Array.isArray(value)) return undefined;
  } catch {
    // Said below.
  }
  return 'Parameter defaults are a JSON object of parameter names and values, e.g. {"limit": 25}.';
}

/** The description keeps its own spacing (it may be laid out); the rest is trimmed. Defaults must pass defaultsDraftProblem. */
export function overrideFromDraft(draft: OverrideDraft): DefinitionOverride {
  const hints = HINT_KEYS.filter((key) => draft[key] !== "").map((key) => [key, draft[key] === "true"]);
  const annotations = { ...(draft.title.trim() ? { title: draft.title.trim() } : {}), ...Object.fromEntries(hints) };
  return {
    tool: draft.tool.trim(),
    models: splitList(draft.models),
    ...(draft.summary.trim() ? { summary: draft.summary.trim() } : {}),
    ...(draft.description.trim() ? { description: draft.description } : {}),
    ...(draft.defaults.trim() ? { defaults: JSON.parse(draft.defaults) as Record<string, unknown> } : {}),
    ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
  };
}
