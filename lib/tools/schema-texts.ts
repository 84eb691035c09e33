// The strings of a JSON Schema that reach a model with it, which the poisoning check reads (poisoning.ts).

/** Schema keywords whose value is one subschema, and those whose value is a list or a record of them. */
const SUBSCHEMA = ["items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames"] as const;
const SUBSCHEMA_LISTS = ["items", "prefixItems", "anyOf", "oneOf", "allOf"] as const;
const SUBSCHEMA_RECORDS = ["properties", "patternProperties", "$defs", "definitions"] as const;
/** Keywords whose strings are values the model may fill in or copy: read for findings, never rewritten. */
const VALUE_KEYWORDS = ["enum", "const", "default", "examples"] as const;
/** Past this many strings, a schema is not read further: one tool cannot make every check run for long. */
const SCHEMA_TEXTS_AT_MOST = 2_000;

/**
 * Every string of a JSON Schema that reaches the model with it, with its path: descriptions
 * (`parameters.<property>…`), titles (`…#title`), property names (`…#name`), and string values of
 * enum, const, default and examples (`…#enum[2]`), through properties, items and the composition
 * keywords; `#` keeps a property named "title" apart from a title. The root's own description
 * counts too, as `parameters` / `output`.
 */
export function schemaTexts(schema: unknown, path = "parameters"): { field: string; text: string }[] {
  const out: { field: string; text: string }[] = [];
  readSchemaTexts(schema, path, out, 0);
  return out.slice(0, SCHEMA_TEXTS_AT_MOST);
}

function readSchemaTexts(schema: unknown, path: string, out: { field: string; text: string }[], depth: number): void {
  if (depth > 8 || out.length >= SCHEMA_TEXTS_AT_MOST || schema === null || typeof schema !== "object" || Array.isArray(schema)) return;
  const node = schema as Record<string, unknown>;
  if (typeof node.description === "string") out.push({ field: path, text: node.description });
  if (typeof node.title === "string") out.push({ field: `${path}#title`, text: node.title });
  for (const keyword of VALUE_KEYWORDS) {
    const value = node[keyword];
    if (typeof value === "string") out.push({ field: `${path}#${keyword}`, text: value });
    if (!Array.isArray(value)) continue;
    for (const [index, item] of value.entries()) if (typeof item === "string") out.push({ field: `${path}#${keyword}[${index}]`, text: item });
  }
  for (const keyword of SUBSCHEMA_RECORDS) {
    const record = node[keyword];
    if (record === null || typeof record !== "object" || Array.isArray(record)) continue;
    for (const [key, value] of Object.entries(record as Record<string, unknown>)) {
      const child = keyword === "properties" ? `${path}.${key}` : `${path}.${keyword}.${key}`;
      if (keyword === "properties") out.push({ field: `${child}#name`, text: key });
      readSchemaTexts(value, child, out, depth + 1);
    }
  }
  for (const keyword of SUBSCHEMA) {
    if (!Array.isArray(node[keyword])) readSchemaTexts(node[keyword], keyword === "items" ? `${path}[]` : `${path}.${keyword}`, out, depth + 1);
  }
  for (const keyword of SUBSCHEMA_LISTS) {
    const list = node[keyword];
    if (!Array.isArray(list)) continue;
    for (const [index, item] of list.entries()) readSchemaTexts(item, `${path}.${keyword}[${index}]`, out, depth + 1);
  }
}
