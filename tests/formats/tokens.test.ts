import { countTokens as countO200k } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { cachedDefinitionCounts, countTokens, totalTokens } from "../../lib/formats/tokens";
import { toProviderFormat } from "../../lib/formats/provider-format";
import type { ToolDefinition } from "../../lib/tools/types";

const tool = (name: string, description: string): ToolDefinition => ({
  name,
  summary: "",
  description,
  inputSchema: { type: "object", properties: { path: { type: "string", description: "Absolute path" } }, required: ["path"] },
});

const tools = [tool("read", "Reads a file."), tool("grep", "Searches file contents with a regular expression. ".repeat(20))];

describe("countTokens", () => {
  it.each(["openai", "anthropic", "ai-sdk"] as const)("counts each %s definition as sent, total being the sum", (format) => {
    const { total, perTool } = countTokens(tools, format);
    expect(perTool.read).toBeGreaterThan(0);
    expect(perTool.grep).toBeGreaterThan(perTool.read);
    expect(total).toBe(perTool.read + perTool.grep);
    const sent = toProviderFormat(tools, format);
    expect(perTool.read).toBe(countO200k(JSON.stringify(sent[0])));
  });

  it("charges OpenAI's wrapper a few tokens more than Anthropic's shape", () => {
    expect(countTokens(tools, "openai").total).toBeGreaterThan(countTokens(tools, "anthropic").total);
  });

  it("is zero for no tools and survives awkward names", () => {
    expect(countTokens([], "openai")).toEqual({ total: 0, perTool: {} });
    const { perTool, total } = countTokens([tool("__proto__", "x")], "openai");
    expect(Object.keys(perTool)).toEqual(["__proto__"]);
    // biome-ignore lint/complexity/useLiteralKeys: the tool is named "__proto__": the bracket shows it is a key of the result, not the prototype
    // biome-ignore lint/suspicious/noProto: the same key, read as data
    expect(perTool["__proto__"]).toBe(total);
  });
});

describe("token counts remembered per definition", () => {
  const fresh = (definition: ToolDefinition, format: "openai" | "anthropic" | "ai-sdk") =>
    countO200k(JSON.stringify(toProviderFormat([definition], format)[0]));

  it("stay exactly what tokenising the definition gives, whatever changes under the same schema object", () => {
    const schema = { type: "object" as const, properties: { q: { type: "string" } } };
    const first: ToolDefinition = { name: "find", summary: "", description: "Finds things.", inputSchema: schema };
    const renamed: ToolDefinition = { ...first, name: "find_everything_everywhere" };
    const redescribed: ToolDefinition = { ...first, description: "Finds things in many places, quickly and thoroughly." };
    for (const format of ["openai", "anthropic", "ai-sdk"] as const) {
      for (const definition of [first, renamed, redescribed, first]) {
        expect(countTokens([definition], format).total).toBe(fresh(definition, format));
      }
    }
  });

  it("are found again by content for a new but equal schema object, and totalTokens is the same sum", () => {
    const make = (): ToolDefinition => ({
      name: "lookup",
      summary: "",
      description: `Looks up ${"many ".repeat(30)}words.`,
      inputSchema: { type: "object", properties: { id: { type: "integer" } } },
    });
    const before = cachedDefinitionCounts();
    const once = countTokens([make()], "openai").total;
    expect(cachedDefinitionCounts()).toBe(before + 1);
    expect(countTokens([make()], "openai").total).toBe(once);
    expect(cachedDefinitionCounts()).toBe(before + 1);
    expect(totalTokens([...tools, make()], "anthropic")).toBe(countTokens([...tools, make()], "anthropic").total);
  });

  it("never count a changed schema as the old one", () => {
    const schema: ToolDefinition["inputSchema"] = { type: "object", properties: { a: { type: "string" } } };
    const definition: ToolDefinition = { name: "grow", summary: "", description: "Grows.", inputSchema: schema };
    const small = countTokens([definition], "ai-sdk").total;
    const bigger: ToolDefinition = {
      ...definition,
      inputSchema: { ...schema, properties: { a: { type: "string", description: "A long description of a. ".repeat(10) } } },
    };
    expect(countTokens([bigger], "ai-sdk").total).toBe(fresh(bigger, "ai-sdk"));
    expect(countTokens([bigger], "ai-sdk").total).toBeGreaterThan(small);
  });
});
