import AjvDraft07 from "ajv";
import Ajv2020 from "ajv/dist/2020.js";
import { SUMMARY_MAX, TOOL_NAME_PATTERN, TOOL_SOURCES, type InputSchema } from "./types";

/** One problem with one field, phrased for the person who has to fix it. */
export interface FieldError {
  field: string;
  message: string;
  /** Set when the problem is size, which the API answers with 413 rather than 400. */
  tooLarge?: true;
}

export const DESCRIPTION_MAX = 20_000;
export const SCHEMA_MAX_BYTES = 64 * 1024;
export const SCHEMA_MAX_PROPERTIES = 1_000;
export const SCHEMA_MAX_DEPTH = 32;
export const TAGS_MAX = 20;
export const TAG_PATTERN = /^[a-z0-9][a-z0-9._-]{0,31}$/;

/** The fields a person or importer supplies for a tool; everything else is derived. */
export type ToolDraft = Partial<Record<"name" | "source" | "summary" | "description" | "inputSchema" | "tags" | "enabled", unknown>>;

const AJV_OPTIONS = { strict: false, allErrors: true, validateFormats: false } as const;
const ajv2020 = new Ajv2020(AJV_OPTIONS);
const ajvDraft07 = new AjvDraft07(AJV_OPTIONS);

/** Draft-07 schemas (common from MCP servers and older generators) are checked as draft-07; the rest as 2020-12. */
function validatorFor(schema: Record<string, unknown>) {
  return typeof schema.$schema === "string" && /draft-0[67]/.test(schema.$schema) ? ajvDraft07 : ajv2020;
}

export function validateToolName(name: unknown, field = "name"): FieldError[] {
  if (typeof name !== "string" || name.length === 0) return [{ field, message: "Name is required." }];
  if (name.length > 64) return [{ field, message: `Name is ${name.length} characters long; the limit is 64.` }];
  if (!TOOL_NAME_PATTERN.test(name)) {
    return [{ field, message: "Name may contain only letters, digits, '_' and '-' (providers reject anything else)." }];
  }
  return [];
}

/** Walks a schema once, counting properties and depth, stopping as soon as a limit is passed. */
function measureSchema(node: unknown, depth: number, acc: { properties: number; depth: number }): void {
  if (acc.properties > SCHEMA_MAX_PROPERTIES || acc.depth > SCHEMA_MAX_DEPTH) return;
  if (Array.isArray(node)) {
    for (const item of node) measureSchema(item, depth + 1, acc);
    return;
  }
  if (node === null || typeof node !== "object") return;
  acc.depth = Math.max(acc.depth, depth);
  const properties = (node as Record<string, unknown>).properties;
  if (properties && typeof properties === "object" && !Array.isArray(properties)) {
    acc.properties += Object.keys(properties).length;
  }
  for (const value of Object.values(node)) measureSchema(value, depth + 1, acc);
}

export function validateInputSchema(schema: unknown, field = "inputSchema"): FieldError[] {
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) {
    return [{ field, message: "Input schema must be a JSON object." }];
  }
  const bytes = JSON.stringify(schema).length;
  if (bytes > SCHEMA_MAX_BYTES) {
    return [{ field, message: `Input schema is too large: ${bytes} bytes; the limit is ${SCHEMA_MAX_BYTES}.`, tooLarge: true }];
  }
  const measured = { properties: 0, depth: 0 };
  measureSchema(schema, 0, measured);
  if (measured.properties > SCHEMA_MAX_PROPERTIES) {
    return [
      { field, message: `Input schema is too large: more than ${SCHEMA_MAX_PROPERTIES} properties.`, tooLarge: true },
    ];
  }
  if (measured.depth > SCHEMA_MAX_DEPTH) {
    return [{ field, message: `Input schema is nested too deeply: more than ${SCHEMA_MAX_DEPTH} levels.`, tooLarge: true }];
  }
  const root = schema as Record<string, unknown>;
  if (root.type !== "object") {
    return [{ field: `${field}.type`, message: 'The root of an input schema must have type "object".' }];
  }
  const ajv = validatorFor(root);
  let valid: boolean;
  try {
    valid = ajv.validateSchema(schema) as boolean;
  } catch (error) {
    // Ajv throws rather than reports for a `$schema` it does not know.
    return [{ field: `${field}.$schema`, message: `Not a valid JSON Schema: ${(error as Error).message}.` }];
  }
  if (!valid) {
    // The meta-schema reports one mistake several ways (enum, type, anyOf): keep the first per place.
    const firstPerPlace = new Map<string, string>();
    for (const error of ajv.errors ?? []) {
      const place = `${field}${error.instancePath.replaceAll("/", ".")}`;
      if (!firstPerPlace.has(place)) firstPerPlace.set(place, error.message ?? "invalid");
    }
    return [...firstPerPlace].map(([place, message]) => ({ field: place, message: `Not a valid JSON Schema: ${message}.` }));
  }
  try {
    ajv.compile(schema);
  } catch (error) {
    return [{ field, message: `Not a valid JSON Schema: ${(error as Error).message}` }];
  }
  return [];
}

export function validateTags(tags: unknown, field = "tags"): FieldError[] {
  if (tags === undefined) return [];
  if (!Array.isArray(tags)) return [{ field, message: "Tags must be a list of strings." }];
  if (tags.length > TAGS_MAX) return [{ field, message: `At most ${TAGS_MAX} tags.` }];
  return tags.flatMap((tag, index) =>
    typeof tag === "string" && TAG_PATTERN.test(tag)
      ? []
      : [{ field: `${field}.${index}`, message: "A tag is 1-32 lowercase letters, digits, '.', '_' or '-'." }],
  );
}

/** Every problem with a tool draft at once, so a form or an import can show them all. */
export function validateToolDraft(draft: ToolDraft, prefix = ""): FieldError[] {
  const at = (field: string) => (prefix ? `${prefix}.${field}` : field);
  const errors: FieldError[] = [...validateToolName(draft.name, at("name"))];
  if (draft.source !== undefined && !TOOL_SOURCES.includes(draft.source as never)) {
    errors.push({ field: at("source"), message: `Source must be one of ${TOOL_SOURCES.join(", ")}.` });
  }
  if (typeof draft.summary !== "string" || draft.summary.trim().length === 0) {
    errors.push({ field: at("summary"), message: "Summary is required: it is what preselection sees." });
  } else if (draft.summary.length > SUMMARY_MAX) {
    errors.push({
      field: at("summary"),
      message: `Summary is ${draft.summary.length} characters long; the limit is ${SUMMARY_MAX}.`,
    });
  }
  if (typeof draft.description !== "string") {
    errors.push({ field: at("description"), message: "Description must be text." });
  } else if (draft.description.length > DESCRIPTION_MAX) {
    errors.push({
      field: at("description"),
      message: `Description is too large: ${draft.description.length} characters; the limit is ${DESCRIPTION_MAX}.`,
      tooLarge: true,
    });
  }
  errors.push(...validateInputSchema(draft.inputSchema, at("inputSchema")));
  errors.push(...validateTags(draft.tags, at("tags")));
  if (draft.enabled !== undefined && typeof draft.enabled !== "boolean") {
    errors.push({ field: at("enabled"), message: "Enabled must be true or false." });
  }
  return errors;
}

export const EMPTY_INPUT_SCHEMA: InputSchema = { type: "object", properties: {} };

/** A summary cut from a long description at a sentence, else a word, boundary. */
export function summarize(description: string, max = SUMMARY_MAX): string {
  const text = description.replace(/\s+/g, " ").trim();
  if (text.length <= max) return text;
  const window = text.slice(0, max);
  const sentenceEnd = Math.max(window.lastIndexOf(". "), window.lastIndexOf("! "), window.lastIndexOf("? "));
  if (sentenceEnd >= max / 3) return window.slice(0, sentenceEnd + 1);
  const wordEnd = text.slice(0, max).lastIndexOf(" ");
  const cut = wordEnd > 0 ? window.slice(0, wordEnd) : window.slice(0, max - 1);
  return `${cut.slice(0, max - 1).replace(/[\s,;:.-]+$/, "")}…`;
}
