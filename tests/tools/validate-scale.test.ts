import Ajv2020 from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { DEMO_TOOLS } from "@/lib/demo";
import { BUILTIN_TOOLS } from "@/lib/tools/builtin";
import {
  cachedSchemaResults,
  compilesTrivially,
  schemaValidatorFootprint,
  SCHEMA_MAX_DEPTH,
  validateInputSchema,
  validateToolDraft,
} from "@/lib/tools/validate";

const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

function nestedArrays(levels: number, innermost: unknown = "x"): unknown {
  let value: unknown = innermost;
  for (let level = 0; level < levels; level++) value = [value];
  return value;
}

describe("schemas with $id", () => {
  it("validate the same way every time, also as new objects and beside another schema with the same $id", () => {
    const schema = { $id: "https://example.com/schemas/search", type: "object", properties: { q: { type: "string" } } };
    expect(validateInputSchema(schema)).toEqual([]);
    expect(validateInputSchema(schema)).toEqual([]);
    expect(validateInputSchema(copy(schema))).toEqual([]);
    expect(validateInputSchema({ ...copy(schema), properties: { other: { type: "integer" } } })).toEqual([]);
    const withRef = { $id: "https://example.com/schemas/ref", type: "object", $defs: { id: { type: "string" } }, properties: { id: { $ref: "#/$defs/id" } } };
    expect(validateInputSchema(withRef)).toEqual([]);
    expect(validateInputSchema(copy(withRef))).toEqual([]);
  });

  it("cannot resolve references to another tool's schema, nor take a meta-schema's id", () => {
    validateInputSchema({ $id: "https://example.com/schemas/shared", type: "object", $defs: { s: { type: "string" } } });
    const borrowing = { type: "object", properties: { s: { $ref: "https://example.com/schemas/shared#/$defs/s" } } };
    expect(validateInputSchema(borrowing)).toMatchObject([{ field: "inputSchema", message: expect.stringContaining("Not a valid JSON Schema") }]);
    const posing = { $id: "https://json-schema.org/draft/2020-12/schema", type: "object" };
    expect(validateInputSchema(posing)).toMatchObject([{ field: "inputSchema" }]);
    // The meta-schema is still there for everything after.
    expect(validateInputSchema({ type: "object", properties: { a: { type: "strng" } } })).toMatchObject([{ field: "inputSchema.properties.a.type" }]);
    expect(validateInputSchema({ type: "object", properties: { a: { type: "string" } } })).toEqual([]);
  });

  it("leave nothing behind in the validators, however many are compiled", () => {
    validateInputSchema({ $id: "https://example.com/warm-up", type: "object", properties: { a: { type: "string", pattern: "^a" } } });
    const before = schemaValidatorFootprint();
    for (let index = 0; index < 200; index++) {
      const errors = validateInputSchema({
        $id: `https://example.com/schemas/${index}`,
        type: "object",
        $defs: { [`d${index}`]: { $id: `inner-${index}`, type: "string" } },
        properties: { a: { $ref: `#/$defs/d${index}` }, b: { type: "string", pattern: `^${index}` } },
      });
      expect(errors).toEqual([]);
    }
    expect(schemaValidatorFootprint()).toBe(before);
  });
});

describe("$schema", () => {
  it("accepts the dialects by name, and refuses other spellings and places in a meta-schema without keeping them", () => {
    for (const dialect of ["https://json-schema.org/draft/2020-12/schema", "http://json-schema.org/draft-07/schema", "http://json-schema.org/schema"]) {
      expect(validateInputSchema({ $schema: dialect, type: "object" })).toEqual([]);
      expect(validateInputSchema({ $schema: `${dialect}#`, type: "object" })).toEqual([]);
    }
    const before = schemaValidatorFootprint();
    expect(before).toBeGreaterThan(0);
    for (let index = 0; index < 50; index++) {
      for (const $schema of [
        `https://json-schema.org/draft/2020-12/schema#/allOf/${index % 7}`,
        `https://json-schema.org/draft/2020-12/x${index}/../schema`,
        `HTTP://JSON-SCHEMA.ORG/draft-07/schema?${index}`,
      ]) {
        expect(validateInputSchema({ $schema, type: "object", title: `${index}` })).toEqual([
          { field: "inputSchema.$schema", message: expect.stringContaining("names no dialect Toolshed knows") },
        ]);
      }
    }
    expect(schemaValidatorFootprint()).toBe(before);
  });
});

describe("schema depth", () => {
  it("counts arrays as levels, like objects", () => {
    expect(validateInputSchema({ type: "object", enum: [nestedArrays(SCHEMA_MAX_DEPTH)] })).toEqual([
      { field: "inputSchema", message: expect.stringContaining("nested too deeply") },
    ]);
    expect(validateInputSchema({ type: "object", default: nestedArrays(10, { a: nestedArrays(30) }) })).toMatchObject([
      { field: "inputSchema", message: expect.stringContaining("nested too deeply") },
    ]);
    expect(validateInputSchema({ type: "object", default: nestedArrays(20) })).toEqual([]);
  });

  it("answers any depth with a field error, never by throwing", () => {
    for (const levels of [4_000, 200_000]) {
      expect(validateInputSchema({ type: "object", enum: [nestedArrays(levels)] })).toEqual([
        { field: "inputSchema", message: expect.stringContaining("nested too deeply") },
      ]);
      let deepObject: Record<string, unknown> = { type: "object" };
      for (let level = 0; level < levels; level++) deepObject = { type: "object", items: [deepObject] };
      expect(validateToolDraft({ name: "deep", summary: "Deep.", description: "", inputSchema: deepObject })).toEqual([
        { field: "inputSchema", message: expect.stringContaining("nested too deeply") },
      ]);
    }
  });
});

describe("validation results by schema text", () => {
  it("are remembered once per text and reported under each caller's field", () => {
    const schema = { type: "object", properties: { when: { type: "strng" } }, title: `cache-${Math.random()}` };
    const before = cachedSchemaResults();
    expect(validateInputSchema(schema, "tools.0.inputSchema")).toEqual([
      { field: "tools.0.inputSchema.properties.when.type", message: expect.stringContaining("Not a valid JSON Schema") },
    ]);
    expect(cachedSchemaResults()).toBe(before + 1);
    expect(validateInputSchema(copy(schema), "inputSchema")).toEqual([
      { field: "inputSchema.properties.when.type", message: expect.stringContaining("Not a valid JSON Schema") },
    ]);
    expect(cachedSchemaResults()).toBe(before + 1);
  });
});

describe("compilesTrivially", () => {
  const compiler = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });

  it("holds only for schemas that Ajv compiles", () => {
    const schemas: unknown[] = [
      ...BUILTIN_TOOLS.map((tool) => tool.inputSchema),
      ...DEMO_TOOLS.map((tool) => tool.inputSchema),
      {
        type: "object",
        properties: {
          sort: { type: "string", enum: ["asc", "desc"], default: "asc" },
          filter: { type: "object", properties: { f: { type: "string" } }, required: ["f"] },
        },
      },
      {
        type: "object",
        properties: { list: { type: "array", items: { anyOf: [{ type: "string" }, { type: "null" }] }, minItems: 1, uniqueItems: true } },
        additionalProperties: false,
      },
      { type: "object", properties: { n: { type: ["integer", "null"], minimum: 0, maximum: 10, multipleOf: 2 }, c: { const: { a: [1] } } } },
    ];
    for (const schema of schemas) {
      expect(validateInputSchema(schema)).toEqual([]);
      if (compilesTrivially(schema)) expect(() => compiler.compile(copy(schema) as object)).not.toThrow();
    }
    expect(schemas.filter((schema) => compilesTrivially(schema)).length).toBeGreaterThan(schemas.length / 2);
  });

  it("sends whatever only compilation can judge to the compiler", () => {
    const needCompiling = [
      { type: "object", properties: { a: { type: "string", pattern: "([" } } },
      { type: "object", properties: { a: { $ref: "#/$defs/missing" } } },
      { type: "object", properties: { a: { nullable: true } } },
      { type: "object", properties: { a: { enum: [] } } },
      { type: "object", patternProperties: { "([": { type: "string" } } },
    ];
    for (const schema of needCompiling) {
      expect(compilesTrivially(schema)).toBe(false);
      expect(validateInputSchema(schema)).toMatchObject([{ message: expect.stringContaining("Not a valid JSON Schema") }]);
    }
    // Keywords Ajv does not know are compiled too, and ignored as before.
    const unknownKeyword = { type: "object", properties: { a: { type: "string", "x-unknown": 1 } } };
    expect(compilesTrivially(unknownKeyword)).toBe(false);
    expect(validateInputSchema(unknownKeyword)).toEqual([]);
  });
});
