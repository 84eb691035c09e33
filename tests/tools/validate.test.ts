import { describe, expect, it } from "vitest";
import { summarize, validateInputSchema, validateToolDraft } from "@/lib/tools/validate";

describe("validateInputSchema", () => {
  it("accepts 2020-12 and draft-07 schemas and names the place of each mistake", () => {
    expect(validateInputSchema({ type: "object", properties: { a: { type: "string" } } })).toEqual([]);
    expect(validateInputSchema({ $schema: "http://json-schema.org/draft-07/schema#", type: "object", definitions: {} })).toEqual([]);
    expect(validateInputSchema({ type: "object", properties: { a: { type: "strng" } } })).toEqual([
      { field: "inputSchema.properties.a.type", message: expect.stringContaining("Not a valid JSON Schema") },
    ]);
  });

  it("refuses an unknown $schema with an error instead of throwing", () => {
    expect(validateInputSchema({ $schema: "https://example.com/nope", type: "object" })).toEqual([
      { field: "inputSchema.$schema", message: expect.stringContaining("names no dialect Toolshed knows") },
    ]);
    expect(validateInputSchema({ $schema: 7, type: "object" })).toMatchObject([{ field: "inputSchema.$schema" }]);
  });

  it("refuses a root that is not an object schema, and schemas nested too deeply (as invalid, not too large)", () => {
    expect(validateInputSchema([])).toMatchObject([{ field: "inputSchema" }]);
    expect(validateInputSchema({ type: "string" })).toMatchObject([{ field: "inputSchema.type" }]);
    let deep: Record<string, unknown> = { type: "object" };
    for (let i = 0; i < 40; i++) deep = { type: "object", properties: { nested: deep } };
    expect(validateInputSchema(deep)).toEqual([{ field: "inputSchema", message: expect.stringContaining("nested too deeply") }]);
  });
});

describe("validateToolDraft and summarize", () => {
  it("lists every problem at once", () => {
    const fields = validateToolDraft({ name: "", summary: "", description: 1, inputSchema: {}, tags: ["Bad Tag"], enabled: "yes" }).map((e) => e.field);
    expect(fields).toEqual(["name", "summary", "description", "inputSchema.type", "tags.0", "enabled"]);
  });

  it("cuts a long description at a sentence, else at a word", () => {
    expect(summarize(`${"Short sentence here. ".repeat(5)}${"word ".repeat(60)}`)).toMatch(/here\.$/);
    const words = summarize("lorem ".repeat(100));
    expect(words.length).toBeLessThanOrEqual(200);
    expect(words.endsWith("…")).toBe(true);
    expect(words).not.toMatch(/lore…$/);
  });
});
