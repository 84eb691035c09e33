import { z } from "zod";
import type { InputSchema } from "./types";

/**
 * Converts a zod 4 object (or a bare shape) to the unified input schema, for built-ins and plugins alike.
 *
 * The result is what models see, so it is kept lean and strict:
 * - no `$schema` key;
 * - every plain (stripping) zod object gets `additionalProperties: false`, because zod would drop
 *   unknown keys anyway and providers' strict modes require it; loose objects and catchalls keep
 *   what zod says about extra keys;
 * - the ±2^53 bounds zod adds to every integer are removed: they are zod's representation limit,
 *   not a constraint a model should read;
 * - a string format (email, date-time, uuid, ...) keeps its `format` but loses the long regex zod
 *   spells it out with, which only costs tokens; patterns written with `.regex()` stay.
 *
 * Conversion uses the input side of transforms and defaults (a field with a default is optional).
 * Throws when the root is not an object or a type has no JSON Schema form (e.g. `z.date()`).
 */
export function inputSchemaFromZod(shape: z.ZodRawShape | z.ZodObject<z.ZodRawShape, z.core.$ZodObjectConfig>): InputSchema {
  const schema = isZodSchema(shape) ? shape : z.strictObject(shape);
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, {
    target: "draft-2020-12",
    io: "input",
    override: ({ zodSchema, jsonSchema }) => {
      const def = zodSchema._zod.def;
      if (def.type === "object" && (def as z.core.$ZodObjectDef).catchall === undefined) {
        jsonSchema.additionalProperties = false;
      }
      const formatPattern = (def as { pattern?: unknown }).pattern;
      if (jsonSchema.format !== undefined && formatPattern instanceof RegExp && jsonSchema.pattern === formatPattern.source) {
        delete jsonSchema.pattern;
      }
      if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
      if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
    },
  });
  if (json.type !== "object") {
    throw new Error(`A tool's input must be a zod object; got JSON Schema type ${JSON.stringify(json.type)}.`);
  }
  return json as InputSchema;
}

function isZodSchema(value: unknown): value is z.ZodType {
  return typeof value === "object" && value !== null && "_zod" in value;
}
