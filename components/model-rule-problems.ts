import type { ModelRule } from "@/lib/rules/model-rules";
import { type UnknownToolName, unknownToolNames } from "@/lib/rules/tool-name-check";

/** The model rule fields as the form labels them. */
export const MODEL_RULE_FIELD_LABELS: Record<string, string> = {
  id: "Rule id",
  name: "Rule name",
  include: "Include models",
  exclude: "Exclude models",
  enable: "Enable tools",
  disable: "Disable tools",
};

type ListField = "include" | "exclude" | "enable" | "disable";

/**
 * A problem's field in the words of the form: `modelRules.2.disable.1` is
 * `Rule 3 “GPT rules” · Disable tools “wirte”` (the item as typed, else its position).
 */
export function modelRuleFieldLabel(field: string, rules: readonly Pick<ModelRule, "name" | ListField>[]): string {
  const match = /^modelRules\.(\d+)(?:\.(\w+)(?:\.(\d+))?)?$/.exec(field);
  if (!match) return field;
  const index = Number(match[1]);
  const rule = rules[index];
  const ruleLabel = `Rule ${index + 1}${rule?.name ? ` “${rule.name}”` : ""}`;
  if (match[2] === undefined) return ruleLabel;
  const fieldLabel = `${ruleLabel} · ${MODEL_RULE_FIELD_LABELS[match[2]] ?? match[2]}`;
  if (match[3] === undefined) return fieldLabel;
  const position = Number(match[3]);
  const value = match[2] in MODEL_RULE_FIELD_LABELS && match[2] !== "id" && match[2] !== "name" ? rule?.[match[2] as ListField]?.[position] : undefined;
  return value ? `${fieldLabel} “${value}”` : `${fieldLabel}, item ${position + 1}`;
}

/** A message that names fields in parentheses, `… (modelRules.2.disable.1)`, with them in the form's words. */
export function relabelMessage(message: string, label: (field: string) => string): string {
  return message.replace(/\((modelRules\.[\w.]+)\)/g, (_, field: string) => `(${label(field)})`);
}

/** The names of a rule's tool lists that are no tool of the catalog, per list, as one types. */
export function unknownRuleTools(rule: Pick<ModelRule, "enable" | "disable">, toolNames: readonly string[], known: ReadonlySet<string>) {
  const lists: { field: "enable" | "disable"; unknown: UnknownToolName[] }[] = [];
  for (const field of ["enable", "disable"] as const) {
    const unknown = unknownToolNames(rule[field], toolNames, known);
    if (unknown.length > 0) lists.push({ field, unknown });
  }
  return lists;
}
