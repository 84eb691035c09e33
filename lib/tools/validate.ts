import AjvDraft07, { type ValidateFunction } from "ajv";
import Ajv2020 from "ajv/dist/2020.js";
import { textProblem } from "../safe-text";
import { Lru } from "./lru";
import { SUMMARY_MAX, TOOL_NAME_PATTERN, TOOL_SOURCES, type InputSchema, type ToolDefinition, type ToolMeta } from "./types";

/** One problem with one field, phrased for the person who has to fix it. */
export interface FieldError {
  field: string;
  message: string;
  /** Set when the problem is size, which the API answers with 413 rather than 400. */
  tooLarge?: true;
}

export const DESCRIPTION_MAX = 20_000;
const SCHEMA_MAX_BYTES = 64 * 1024;
const SCHEMA_MAX_PROPERTIES = 1_000;
export const SCHEMA_MAX_DEPTH = 32;
const TAGS_MAX = 20;
const TAG_PATTERN = /^[a-z0-9][a-z0-9._-]{0,31}$/;

/** The fields a person or importer supplies for a tool; everything else is derived. */
export type ToolDraft = Partial<Record<"name" | "source" | "summary" | "description" | "inputSchema" | "tags" | "enabled", unknown>>;

const AJV_OPTIONS = { strict: false, allErrors: true, validateFormats: false } as const;

/**
 * Per dialect, one validator holding the meta-schemas that judges schemas (nothing untrusted is
 * compiled in it), and one that compiles accepted schemas and is emptied after every compilation
 * with removeSchema(), which drops every schema, id, anchor and cache entry but the meta-schemas.
 * So nothing a schema registers outlives its compilation (the returned function keeps what it
 * needs): the same `$id` compiles again, one tool's ids cannot resolve another tool's references,
 * and the registry does not grow. The compiler keeps registering a schema's own `$id` while it
 * compiles (rather than addUsedSchema: false) so that Ajv still refuses an `$id` naming a
 * meta-schema. It is emptied once at the start too, so it is in the same state before every
 * compilation.
 */
function dialect(Validator: typeof Ajv2020 | typeof AjvDraft07) {
  return { check: new Validator(AJV_OPTIONS), compile: new Validator({ ...AJV_OPTIONS, validateSchema: false }).removeSchema() };
}
type Dialect = ReturnType<typeof dialect>;
const draft2020 = dialect(Ajv2020);
const draft07 = dialect(AjvDraft07);

/**
 * The `$schema` values accepted (also with an empty fragment), and their dialect; without one a
 * schema is 2020-12. Any other value is refused rather than looked up: Ajv keeps whatever a
 * lookup finds under the text looked up, so every spelling of a meta-schema or of a place in it
 * would stay in its registry for good.
 */
const DIALECTS = new Map<string, Dialect>([
  ["https://json-schema.org/draft/2020-12/schema", draft2020],
  ["http://json-schema.org/schema", draft2020],
  ["http://json-schema.org/draft-07/schema", draft07],
]);

function dialectOf(schema: Record<string, unknown>): Dialect | undefined {
  if (schema.$schema === undefined) return draft2020;
  return typeof schema.$schema === "string" ? DIALECTS.get(schema.$schema.replace(/#$/, "")) : undefined;
}

export function validateToolName(name: unknown, field = "name"): FieldError[] {
  if (typeof name !== "string" || name.length === 0) return [{ field, message: "Name is required." }];
  if (name.length > 64) return [{ field, message: `Name is ${name.length} characters long; the limit is 64.` }];
  if (!TOOL_NAME_PATTERN.test(name)) {
    return [{ field, message: "Name may contain only letters, digits, '_' and '-' (providers reject anything else)." }];
  }
  return [];
}

/**
 * Counts properties and depth without recursion, so no nesting can overflow the stack. Objects
 * and arrays both count as a level. Stops as soon as a limit is passed.
 */
function measureSchema(schema: object): { properties: number; depth: number } {
  let properties = 0;
  let depth = 0;
  const nodes: unknown[] = [schema];
  const depths: number[] = [0];
  while (nodes.length > 0) {
    const node = nodes.pop();
    const level = depths.pop()!;
    if (node === null || typeof node !== "object") continue;
    if (level > depth) depth = level;
    if (properties > SCHEMA_MAX_PROPERTIES || depth > SCHEMA_MAX_DEPTH) break;
    const children = Array.isArray(node) ? node : Object.values(node);
    if (!Array.isArray(node)) {
      const nested = (node as Record<string, unknown>).properties;
      if (nested && typeof nested === "object" && !Array.isArray(nested)) properties += Object.keys(nested).length;
    }
    for (const child of children) {
      if (child !== null && typeof child === "object") {
        nodes.push(child);
        depths.push(level + 1);
      }
    }
  }
  return { properties, depth };
}

// Keywords whose code Ajv generates without any check that could fail once the meta-schema has
// accepted the schema. A schema made of these alone needs no compilation to be known compilable;
// anything else (references, ids, anchors, regular expressions, `nullable`, conditionals, unknown
// keywords…) is compiled, as before.
const VALUE_KEYWORDS = new Set([
  "title",
  "description",
  "default",
  "examples",
  "deprecated",
  "readOnly",
  "writeOnly",
  "$comment",
  "type",
  "const",
  "multipleOf",
  "maximum",
  "minimum",
  "exclusiveMaximum",
  "exclusiveMinimum",
  "maxLength",
  "minLength",
  "maxItems",
  "minItems",
  "uniqueItems",
  "maxProperties",
  "minProperties",
  "required",
  "format",
]);
const SCHEMA_KEYWORDS = new Set(["items", "additionalProperties", "not"]);
const SCHEMA_LIST_KEYWORDS = new Set(["allOf", "anyOf", "oneOf", "prefixItems"]);

/** True when the meta-valid schema uses only keywords whose compilation cannot fail (see above). */
export function compilesTrivially(schema: unknown, root = true): boolean {
  const pending: unknown[] = [schema];
  let first = root;
  while (pending.length > 0) {
    const node = pending.pop();
    const isRoot = first;
    first = false;
    if (typeof node === "boolean") continue;
    if (node === null || typeof node !== "object" || Array.isArray(node)) return false;
    for (const [keyword, value] of Object.entries(node)) {
      if (VALUE_KEYWORDS.has(keyword)) continue;
      if (keyword === "$schema" && isRoot) continue;
      if (keyword === "enum") {
        if (!Array.isArray(value) || value.length === 0) return false;
      } else if (keyword === "properties") {
        if (value === null || typeof value !== "object" || Array.isArray(value) || Object.hasOwn(value, "__proto__")) return false;
        pending.push(...Object.values(value));
      } else if (SCHEMA_KEYWORDS.has(keyword)) {
        if (Array.isArray(value)) pending.push(...value);
        else pending.push(value);
      } else if (SCHEMA_LIST_KEYWORDS.has(keyword)) {
        if (!Array.isArray(value)) return false;
        pending.push(...value);
      } else {
        return false;
      }
    }
  }
  return true;
}

/** See dialect(): the compiler is emptied whether or not the compilation succeeds. */
function compileDetached(dialect: Dialect, schema: object): ValidateFunction {
  try {
    return dialect.compile.compile(schema);
  } finally {
    dialect.compile.removeSchema();
  }
}

/** What only compilation finds (unresolvable references, bad regular expressions…). */
function compileError(dialect: Dialect, schema: object): string | undefined {
  try {
    compileDetached(dialect, schema);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * For tests: how much the validators hold, which must not grow with what they validate. Ajv has
 * no public way to list its registry, so this reads its fields, and fails if they are gone
 * rather than measure nothing.
 */
export function schemaValidatorFootprint(): number {
  return [draft2020, draft07]
    .flatMap(({ check, compile }) => [check, compile])
    .reduce((sum, ajv) => {
      const { refs, schemas, _cache } = ajv as unknown as { refs?: object; schemas?: object; _cache?: Map<unknown, unknown> };
      if (!refs || !schemas || !(_cache instanceof Map)) throw new Error("Ajv's registry is not where schemaValidatorFootprint looks.");
      return sum + Object.keys(refs).length + Object.keys(schemas).length + _cache.size;
    }, 0);
}

/** A problem relative to the schema's own field, so one cached result serves any field name. */
interface SchemaProblem {
  at: string;
  message: string;
  tooLarge?: true;
}

/**
 * The outcome per schema text: the same schema is validated again and again (an import checks
 * each tool twice, every MCP sync re-lists every tool), and its outcome depends on its text only.
 * Bounded by entries and by the characters of the texts it keeps.
 */
const SCHEMA_RESULTS_MAX_ENTRIES = 20_000;
const SCHEMA_RESULTS_MAX_CHARACTERS = 32 * 1024 * 1024;
const schemaResults = new Lru<string, SchemaProblem[]>({
  maxEntries: SCHEMA_RESULTS_MAX_ENTRIES,
  maxWeight: SCHEMA_RESULTS_MAX_CHARACTERS,
  weigh: (_problems, text) => text.length,
});

/** For tests: the number of schema texts whose outcome is cached. */
export function cachedSchemaResults(): number {
  return schemaResults.size;
}

// Nesting is a shape the schema may not have, not a size: 400, however small the body.
const tooDeep = (): SchemaProblem[] => [{ at: "", message: `Input schema is nested too deeply: more than ${SCHEMA_MAX_DEPTH} levels.` }];

function checkSchema(schema: object): SchemaProblem[] {
  const measured = measureSchema(schema);
  if (measured.properties > SCHEMA_MAX_PROPERTIES) {
    return [{ at: "", message: `Input schema is too large: more than ${SCHEMA_MAX_PROPERTIES} properties.`, tooLarge: true }];
  }
  if (measured.depth > SCHEMA_MAX_DEPTH) return tooDeep();
  const root = schema as Record<string, unknown>;
  if (root.type !== "object") return [{ at: ".type", message: 'The root of an input schema must have type "object".' }];
  const schemaDialect = dialectOf(root);
  if (schemaDialect === undefined) {
    return [{ at: ".$schema", message: "Not a valid JSON Schema: $schema names no dialect Toolshed knows (JSON Schema 2020-12 or draft-07)." }];
  }
  const ajv = schemaDialect.check;
  if (!ajv.validateSchema(schema)) {
    // The meta-schema reports one mistake several ways (enum, type, anyOf): keep the first per place.
    const firstPerPlace = new Map<string, string>();
    for (const error of ajv.errors ?? []) {
      const place = error.instancePath.replaceAll("/", ".");
      if (!firstPerPlace.has(place)) firstPerPlace.set(place, error.message ?? "invalid");
    }
    return [...firstPerPlace].map(([at, message]) => ({ at, message: `Not a valid JSON Schema: ${message}.` }));
  }
  if (compilesTrivially(schema)) return [];
  const problem = compileError(schemaDialect, schema);
  return problem === undefined ? [] : [{ at: "", message: `Not a valid JSON Schema: ${problem}` }];
}

export function validateInputSchema(schema: unknown, field = "inputSchema"): FieldError[] {
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) {
    return [{ field, message: "Input schema must be a JSON object." }];
  }
  let text: string;
  try {
    text = JSON.stringify(schema);
  } catch (error) {
    // Nesting deep enough to exhaust the stack while serialising is, above all, nesting too deep.
    if (error instanceof RangeError && measureSchema(schema).depth > SCHEMA_MAX_DEPTH) return toFieldErrors(tooDeep(), field);
    throw error;
  }
  if (text.length > SCHEMA_MAX_BYTES) {
    return [{ field, message: `Input schema is too large: ${text.length} bytes; the limit is ${SCHEMA_MAX_BYTES}.`, tooLarge: true }];
  }
  let problems = schemaResults.get(text);
  if (problems === undefined) {
    problems = checkSchema(schema);
    schemaResults.set(text, problems);
  }
  return toFieldErrors(problems, field);
}

function toFieldErrors(problems: SchemaProblem[], field: string): FieldError[] {
  return problems.map(({ at, message, tooLarge }) => (tooLarge ? { field: `${field}${at}`, message, tooLarge } : { field: `${field}${at}`, message }));
}

/** An MCP tool's output schema: checked as an input schema is (an object at its root, a usable JSON Schema), in its own words. */
export function validateOutputSchema(schema: unknown, field = "outputSchema"): FieldError[] {
  return validateInputSchema(schema, field).map((error) => ({
    ...error,
    message: error.message.replace(/\b(I|i)nput schema/, (_match, initial: string) => `${initial === "I" ? "O" : "o"}utput schema`),
  }));
}

/**
 * Compiled validators per schema text, for checking values against a schema again and again (an
 * MCP tool's structured results against its output schema, at every call). Bounded by entries and
 * by the characters of the texts it keeps.
 */
const VALIDATORS_MAX_ENTRIES = 1_000;
const VALIDATORS_MAX_CHARACTERS = 8 * 1024 * 1024;
const compiledValidators = new Lru<string, ValidateFunction>({
  maxEntries: VALIDATORS_MAX_ENTRIES,
  maxWeight: VALIDATORS_MAX_CHARACTERS,
  weigh: (_validate, text) => text.length,
});

/** For tests: the number of schema texts whose compiled validator is cached. */
export function cachedValidators(): number {
  return compiledValidators.size;
}

/** Where a value breaks a schema: a JSON Pointer into the value ("" for the value itself) and what is wrong there. */
export interface SchemaViolation {
  path: string;
  message: string;
}

/**
 * The first way `value` breaks `schema`, or undefined when it conforms. The schema must be one
 * validateInputSchema or validateOutputSchema accepted; a `$schema` of draft-07 is honoured.
 */
export function schemaViolation(schema: Record<string, unknown>, value: unknown): SchemaViolation | undefined {
  const text = JSON.stringify(schema);
  let validate = compiledValidators.get(text);
  if (validate === undefined) {
    validate = compileDetached(dialectOf(schema) ?? draft2020, schema);
    compiledValidators.set(text, validate);
  }
  if (validate(value)) return undefined;
  const [first] = validate.errors ?? [];
  return { path: first?.instancePath ?? "", message: first?.message ?? "does not match the schema" };
}

/**
 * Why a model's or client's arguments to a tool are refused before they reach the tool's server,
 * or undefined when they match its input schema as the catalog stores it, in the dialect its MCP
 * server declared: the tool, where in the arguments and what is wrong, in words the model can
 * correct the call by.
 */
export function toolArgumentsProblem(
  tool: Pick<ToolDefinition, "name" | "inputSchema"> & { meta?: Pick<ToolMeta, "inputSchemaDialect"> | null },
  args: unknown,
): string | undefined {
  const dialect = tool.meta?.inputSchemaDialect;
  const violation = schemaViolation(dialect ? { $schema: dialect, ...tool.inputSchema } : tool.inputSchema, args);
  if (violation === undefined) return undefined;
  const at = violation.path === "" ? "" : ` at ${violation.path}`;
  return `The arguments do not match the input schema of ${tool.name}${at}: ${violation.message}. ${tool.name} was not called; call it again with arguments that match its schema.`;
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
  } else {
    const problem = textProblem(draft.summary);
    if (problem) errors.push({ field: at("summary"), message: problem });
  }
  if (typeof draft.description !== "string") {
    errors.push({ field: at("description"), message: "Description must be text." });
  } else if (draft.description.length > DESCRIPTION_MAX) {
    errors.push({
      field: at("description"),
      message: `Description is too large: ${draft.description.length} characters; the limit is ${DESCRIPTION_MAX}.`,
      tooLarge: true,
    });
  } else {
    const problem = textProblem(draft.description);
    if (problem) errors.push({ field: at("description"), message: problem });
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
