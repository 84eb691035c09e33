import type { InputSchema, ToolDefinition, ToolMeta } from "../tools/types";
import { schemaViolation } from "../tools/validate";
import { ANNOTATION_KEYS, type DefinitionOverride } from "./overrides";

// What a definition override changes of one tool, field by field, checked against the tool as its
// source defines it now: for validation, for the pipeline, and for the tool's page (upstream vs override).

/** The parameters of a tool: the top-level properties of its input schema. */
function parameterNames(schema: InputSchema): string[] {
  return Object.keys(schema.properties ?? {});
}

/**
 * Why `value` cannot be the default of the parameter `name` of a tool with this input schema
 * (it has no such parameter, or the value breaks the parameter's schema), or undefined when it can.
 * The parameter's schema is checked inside its tool's, so its `$ref`s to the tool's `$defs` resolve.
 */
export function defaultProblem(tool: string, schema: InputSchema, name: string, value: unknown): string | undefined {
  const properties = schema.properties ?? {};
  if (!Object.hasOwn(properties, name)) {
    const known = parameterNames(schema);
    return `Tool "${tool}" has no parameter "${name}" (${known.length > 0 ? `its parameters: ${known.join(", ")}` : "it takes none"}).`;
  }
  const { required: _required, properties: _properties, ...rest } = schema;
  const wrapper = { ...rest, type: "object", properties: { [name]: properties[name] } };
  let violation: ReturnType<typeof schemaViolation>;
  try {
    violation = schemaViolation(wrapper, { [name]: value });
  } catch {
    return undefined;
  }
  if (violation === undefined) return undefined;
  const where = violation.path.replace(`/${name}`, "") || "";
  return `The default ${JSON.stringify(value)} for "${name}" of tool "${tool}" does not match the parameter's schema${where ? ` (at ${where})` : ""}: ${violation.message}.`;
}

/** One field an override sets: what the tool's source says (undefined: nothing) and what the override says. */
export interface OverriddenField {
  /** `summary`, `description`, `default of <parameter>`, `annotation <key>`. */
  field: string;
  upstream: unknown;
  override: unknown;
  /** Why the override of this field is not applied (its parameter is gone, its default no longer fits), else undefined. */
  ignored?: string;
}

/** A tool as its source defines it, with what an MCP server lists besides the definition. */
export type UpstreamTool = Pick<ToolDefinition, "name" | "summary" | "description" | "inputSchema"> & { meta?: ToolMeta | null };

/** The annotations a tool's source gives it, with its display title among them (MCP puts `title` beside them). */
function upstreamAnnotations(meta: ToolMeta | null | undefined): Record<string, unknown> {
  const annotations = meta?.annotations ?? {};
  const title = meta?.title ?? annotations.title;
  return { ...annotations, ...(title === undefined ? {} : { title }) };
}

/** Each field one override sets on `tool`, upstream value beside override value. */
export function overriddenFields(tool: UpstreamTool, override: DefinitionOverride): OverriddenField[] {
  const fields: OverriddenField[] = [];
  if (override.summary !== undefined) fields.push({ field: "summary", upstream: tool.summary, override: override.summary });
  if (override.description !== undefined) fields.push({ field: "description", upstream: tool.description, override: override.description });
  for (const [name, value] of Object.entries(override.defaults ?? {})) {
    const property = tool.inputSchema.properties?.[name];
    const upstream = property !== null && typeof property === "object" ? (property as Record<string, unknown>).default : undefined;
    const ignored = defaultProblem(tool.name, tool.inputSchema, name, value);
    fields.push({ field: `default of ${name}`, upstream, override: value, ...(ignored ? { ignored } : {}) });
  }
  const annotations = upstreamAnnotations(tool.meta);
  for (const key of ANNOTATION_KEYS) {
    const value = override.annotations?.[key];
    if (value !== undefined) fields.push({ field: `annotation ${key}`, upstream: annotations[key], override: value });
  }
  return fields;
}
