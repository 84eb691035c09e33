import { describe, expect, it } from "vitest";
import { z } from "zod";
import { validateInputSchema } from "../../lib/tools/validate";
import { inputSchemaFromZod } from "../../lib/tools/zod-schema";

const representativeShape = {
  query: z.string().min(1).describe("What to search for."),
  limit: z.int().min(1).max(50).optional().describe("Maximum number of results."),
  page: z.int().min(0).optional(),
  ticket: z
    .string()
    .regex(/^[A-Z]+-\d+$/)
    .optional()
    .describe("Ticket key."),
  notify: z.email().optional().describe("Who to notify."),
  since: z.iso.datetime().optional(),
  sort: z.enum(["relevance", "newest"]).default("relevance").describe("Result order."),
  labels: z.array(z.string()).optional().describe("Only items with all of these labels."),
  author: z
    .object({
      login: z.string().describe("Account name."),
      bot: z.boolean().optional(),
    })
    .optional()
    .describe("Filter by author."),
};

describe("inputSchemaFromZod", () => {
  it("converts a representative shape to a lean, strict JSON Schema", () => {
    expect(inputSchemaFromZod(representativeShape)).toMatchInlineSnapshot(`
      {
        "additionalProperties": false,
        "properties": {
          "author": {
            "additionalProperties": false,
            "description": "Filter by author.",
            "properties": {
              "bot": {
                "type": "boolean",
              },
              "login": {
                "description": "Account name.",
                "type": "string",
              },
            },
            "required": [
              "login",
            ],
            "type": "object",
          },
          "labels": {
            "description": "Only items with all of these labels.",
            "items": {
              "type": "string",
            },
            "type": "array",
          },
          "limit": {
            "description": "Maximum number of results.",
            "maximum": 50,
            "minimum": 1,
            "type": "integer",
          },
          "notify": {
            "description": "Who to notify.",
            "format": "email",
            "type": "string",
          },
          "page": {
            "minimum": 0,
            "type": "integer",
          },
          "query": {
            "description": "What to search for.",
            "minLength": 1,
            "type": "string",
          },
          "since": {
            "format": "date-time",
            "type": "string",
          },
          "sort": {
            "default": "relevance",
            "description": "Result order.",
            "enum": [
              "relevance",
              "newest",
            ],
            "type": "string",
          },
          "ticket": {
            "description": "Ticket key.",
            "pattern": "^[A-Z]+-\\d+$",
            "type": "string",
          },
        },
        "required": [
          "query",
        ],
        "type": "object",
      }
    `);
  });

  it("treats a bare shape and the same z.object alike", () => {
    expect(inputSchemaFromZod(z.object(representativeShape))).toEqual(inputSchemaFromZod(representativeShape));
  });

  it("keeps properties in the order of the shape", () => {
    expect(Object.keys(inputSchemaFromZod(representativeShape).properties ?? {})).toEqual(Object.keys(representativeShape));
  });

  it("is deterministic: the same input gives byte-identical output", () => {
    expect(JSON.stringify(inputSchemaFromZod(representativeShape))).toBe(JSON.stringify(inputSchemaFromZod(representativeShape)));
  });

  it("keeps what a loose object or a catchall says about extra keys", () => {
    expect(inputSchemaFromZod(z.looseObject({ a: z.string() })).additionalProperties).toEqual({});
    expect(inputSchemaFromZod(z.object({ a: z.string() }).catchall(z.number())).additionalProperties).toEqual({
      type: "number",
    });
  });

  it("produces schemas the registry accepts", () => {
    expect(validateInputSchema(inputSchemaFromZod(representativeShape))).toEqual([]);
    expect(validateInputSchema(inputSchemaFromZod({}))).toEqual([]);
  });

  it("rejects a root that is not an object", () => {
    expect(() => inputSchemaFromZod(z.string() as unknown as z.ZodRawShape)).toThrow(/must be a zod object/);
  });

  it("rejects types without a JSON Schema form", () => {
    expect(() => inputSchemaFromZod({ due: z.date() })).toThrow();
  });
});
