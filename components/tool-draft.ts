import type { ToolRecord } from "@/db/queries/tools";
import { type FieldError, validateToolDraft } from "@/lib/tools/validate";
import { subPath } from "./form-problems";

const NEW_SCHEMA = JSON.stringify({ type: "object", properties: {}, additionalProperties: false }, null, 2);

/** A tool as its form holds it: the input schema as JSON text, the tags as comma-separated text. */
export interface ToolFormValues {
  name: string;
  summary: string;
  description: string;
  inputSchema: string;
  tags: string;
}

export type ToolField = keyof ToolFormValues;

const TOOL_FIELDS = new Set<string>(["name", "summary", "description", "inputSchema", "tags"] satisfies ToolField[]);

export const toolFormValues = (tool?: ToolRecord): ToolFormValues => ({
  name: tool?.name ?? "",
  summary: tool?.summary ?? "",
  description: tool?.description ?? "",
  inputSchema: tool ? JSON.stringify(tool.inputSchema, null, 2) : NEW_SCHEMA,
  tags: tool?.tags.join(", ") ?? "",
});

function parseTags(text: string): string[] {
  return text
    .split(",")
    .map((tag) => tag.trim())
    .filter(Boolean);
}

/**
 * Reads the form into the draft the server takes, with its problems as the server would name
 * them (lib/tools/validate); a schema that is not JSON is a problem of its own.
 */
export function readToolForm(values: ToolFormValues): { draft: Record<string, unknown>; problems: FieldError[] } {
  const draft: Record<string, unknown> = {
    name: values.name.trim(),
    summary: values.summary.trim(),
    description: values.description,
    tags: parseTags(values.tags),
  };
  try {
    draft.inputSchema = JSON.parse(values.inputSchema);
    return { draft, problems: validateToolDraft(draft) };
  } catch (error) {
    const problems = validateToolDraft({ ...draft, inputSchema: {} }).filter((problem) => !problem.field.startsWith("inputSchema"));
    return { draft, problems: [...problems, { field: "inputSchema", message: `Not valid JSON: ${(error as Error).message}` }] };
  }
}

/**
 * Where the form files a problem: under the form field it is about, the rest of its place
 * ("inputSchema.properties.x") kept whole (see subPath); undefined for a field the form has not.
 */
export function problemPath(field: string): string[] | undefined {
  const [top, ...rest] = field.split(".");
  return TOOL_FIELDS.has(top) ? [top, ...subPath(rest)] : undefined;
}

/** Problems by the form field they belong to ("inputSchema.properties.x" → inputSchema). */
export function byField(problems: FieldError[]): Partial<Record<ToolField, FieldError[]>> {
  const grouped: Partial<Record<ToolField, FieldError[]>> = {};
  for (const problem of problems) {
    const field = problem.field.split(".")[0] as ToolField;
    grouped[field] = [...(grouped[field] ?? []), problem];
  }
  return grouped;
}
