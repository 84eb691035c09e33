import { SUMMARY_MAX } from "../tools/types";
import { DESCRIPTION_MAX, type FieldError } from "../tools/validate";
import { AGENT_NAME_PATTERN, type Agent } from "./agents";
import type { ModelRule } from "./model-rules";
import type { InputSchema } from "../tools/types";
import { defaultProblem } from "./override-fields";
import { type DefinitionOverride, overrideSetsSomething } from "./overrides";
import { validatePattern } from "./patterns";

function validatePatterns(patterns: string[], field: string): FieldError[] {
  return patterns.flatMap((pattern, index) => validatePattern(pattern, `${field}.${index}`));
}

function validateToolReferences(names: string[], field: string, toolNames: ReadonlySet<string>): FieldError[] {
  return names.flatMap((name, index) =>
    toolNames.has(name) ? [] : [{ field: `${field}.${index}`, message: `There is no tool named "${name}" in this catalog.` }],
  );
}

/** Checks model rules against the catalog's tool names; fields are `modelRules[i].…`. */
export function validateModelRules(rules: ModelRule[], toolNames: ReadonlySet<string>): FieldError[] {
  const errors: FieldError[] = [];
  const seenIds = new Set<string>();
  rules.forEach((rule, index) => {
    const field = `modelRules.${index}`;
    if (rule.id.trim() === "") errors.push({ field: `${field}.id`, message: "Rule id is required." });
    else if (seenIds.has(rule.id)) errors.push({ field: `${field}.id`, message: `Another rule already has the id "${rule.id}".` });
    seenIds.add(rule.id);
    if (rule.name.trim() === "") errors.push({ field: `${field}.name`, message: "Rule name is required: the trace quotes it." });
    if (rule.include.length === 0) {
      errors.push({ field: `${field}.include`, message: 'Add at least one include pattern ("*" for every model).' });
    }
    errors.push(...validatePatterns(rule.include, `${field}.include`), ...validatePatterns(rule.exclude, `${field}.exclude`));
    errors.push(...validateToolReferences(rule.enable, `${field}.enable`, toolNames), ...validateToolReferences(rule.disable, `${field}.disable`, toolNames));
    const disabled = new Set(rule.disable);
    rule.enable.forEach((name, position) => {
      if (disabled.has(name)) {
        errors.push({ field: `${field}.enable.${position}`, message: `"${name}" is both enabled and disabled by this rule.` });
      }
    });
  });
  return errors;
}

/** Checks agent names, permission patterns and base tools; fields are `agents[i].…`. */
export function validateAgents(agents: Agent[], toolNames: ReadonlySet<string>): FieldError[] {
  const errors: FieldError[] = [];
  const seenNames = new Set<string>();
  agents.forEach((agent, index) => {
    const field = `agents.${index}`;
    if (!AGENT_NAME_PATTERN.test(agent.name)) {
      errors.push({
        field: `${field}.name`,
        message: "Agent name must start with a lowercase letter or digit and contain only lowercase letters, digits, '_' and '-' (at most 64).",
      });
    } else if (seenNames.has(agent.name)) {
      errors.push({ field: `${field}.name`, message: `Another agent is already named "${agent.name}".` });
    }
    seenNames.add(agent.name);
    agent.permissions.forEach((rule, position) => {
      errors.push(...validatePattern(rule.pattern, `${field}.permissions.${position}.pattern`));
    });
    errors.push(...validateToolReferences(agent.baseTools, `${field}.baseTools`, toolNames));
  });
  return errors;
}

/**
 * Checks definition overrides; fields are `overrides[i].…`. With `schemaOf` (a tool's input schema
 * as its source defines it now; undefined for one not known yet, e.g. pending in an apply), each
 * parameter default must name a parameter of the tool and match that parameter's schema.
 */
export function validateOverrides(
  overrides: DefinitionOverride[],
  toolNames: ReadonlySet<string>,
  schemaOf: (tool: string) => InputSchema | undefined = () => undefined,
): FieldError[] {
  const errors: FieldError[] = [];
  overrides.forEach((override, index) => {
    const field = `overrides.${index}`;
    if (!toolNames.has(override.tool)) {
      errors.push({ field: `${field}.tool`, message: `There is no tool named "${override.tool}" in this catalog.` });
    }
    errors.push(...validatePatterns(override.models, `${field}.models`));
    if (!overrideSetsSomething(override)) {
      errors.push({ field, message: "An override must replace the summary, the description, a parameter default or an annotation." });
    }
    const schema = toolNames.has(override.tool) ? schemaOf(override.tool) : undefined;
    for (const [name, value] of schema ? Object.entries(override.defaults ?? {}) : []) {
      const problem = defaultProblem(override.tool, schema!, name, value);
      if (problem) errors.push({ field: `${field}.defaults.${name}`, message: problem });
    }
    if (override.summary !== undefined && override.summary.length > SUMMARY_MAX) {
      errors.push({ field: `${field}.summary`, message: `Summary is ${override.summary.length} characters long; the limit is ${SUMMARY_MAX}.` });
    }
    if (override.description !== undefined && override.description.length > DESCRIPTION_MAX) {
      errors.push({
        field: `${field}.description`,
        message: `Description is ${override.description.length} characters long; the limit is ${DESCRIPTION_MAX}.`,
      });
    }
  });
  return errors;
}
