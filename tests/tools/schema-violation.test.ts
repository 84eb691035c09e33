import { describe, expect, it } from "vitest";
import { cachedValidators, schemaValidatorFootprint, schemaViolation } from "@/lib/tools/validate";

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
