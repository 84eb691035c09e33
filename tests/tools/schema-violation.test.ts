import { describe, expect, it } from "vitest";
import { cachedValidators, schemaValidatorFootprint, schemaViolation, toolArgumentsProblem } from "@/lib/tools/validate";

const forecast = {
  type: "object",
  properties: { temperature: { type: "number" }, readings: { type: "array", items: { type: "number" } } },
  required: ["temperature"],
};

describe("schemaViolation", () => {
  it("says nothing of a conforming value, and gives the first violation's path and what is wrong", () => {
    expect(schemaViolation(forecast, { temperature: 21.5, readings: [1, 2] })).toBeUndefined();
    expect(schemaViolation(forecast, { temperature: "warm" })).toEqual({ path: "/temperature", message: "must be number" });
    expect(schemaViolation(forecast, { temperature: 1, readings: [1, "two"] })).toEqual({ path: "/readings/1", message: "must be number" });
    expect(schemaViolation(forecast, {})).toEqual({ path: "", message: "must have required property 'temperature'" });
  });

  it("checks in the schema's own dialect: draft-07's array form of items", () => {
    const tuple = { type: "object", properties: { pair: { type: "array", items: [{ type: "string" }, { type: "number" }] } } };
    expect(schemaViolation({ $schema: "http://json-schema.org/draft-07/schema#", ...tuple }, { pair: ["a", 1] })).toBeUndefined();
    expect(schemaViolation({ $schema: "http://json-schema.org/draft-07/schema#", ...tuple }, { pair: ["a", "b"] })).toEqual({
      path: "/pair/1",
      message: "must be number",
    });
  });

  it("compiles each schema text once, and leaves nothing behind in the shared validators", () => {
    const before = schemaValidatorFootprint();
    const cached = cachedValidators();
    for (let index = 0; index < 50; index++) {
      const schema = { $id: `https://example.com/out/${index}`, type: "object", $defs: { n: { type: "number" } }, properties: { v: { $ref: "#/$defs/n" } } };
      expect(schemaViolation(schema, { v: index })).toBeUndefined();
      expect(schemaViolation(JSON.parse(JSON.stringify(schema)), { v: "x" })).toEqual({ path: "/v", message: "must be number" });
    }
    expect(cachedValidators()).toBe(cached + 50);
    expect(schemaValidatorFootprint()).toBe(before);
  });
});

describe("toolArgumentsProblem", () => {
  // Stored without its `$schema` (the dialect is kept beside it); `minContains` is a 2020-12 keyword that draft-07 does not have.
  const labeller = {
    name: "label",
    inputSchema: { type: "object" as const, properties: { tags: { type: "array", contains: { const: "x" }, minContains: 2 } }, required: ["tags"] },
  };

  it("names the tool, the place and the problem, and checks in the dialect the tool's server declared", () => {
    expect(toolArgumentsProblem(labeller, { tags: ["x"] })).toBe(
      "The arguments do not match the input schema of label at /tags: must contain at least 2 valid item(s). label was not called; call it again with arguments that match its schema.",
    );
    expect(toolArgumentsProblem(labeller, {})).toContain("of label: must have required property 'tags'.");
    const draft07 = { ...labeller, meta: { inputSchemaDialect: "http://json-schema.org/draft-07/schema#" } };
    expect(toolArgumentsProblem(draft07, { tags: ["x"] })).toBeUndefined();
    expect(toolArgumentsProblem(draft07, { tags: ["y"] })).toContain("of label at /tags/0: must be equal to constant.");
  });
});
