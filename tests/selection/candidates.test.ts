import { describe, expect, it } from "vitest";
import { catalogCorpus, parameterTextOf, toCandidates } from "../../lib/selection/candidates";
import type { Tool } from "../../lib/tools/types";

describe("parameterTextOf", () => {
  it("reads the parameters' descriptions, titles and enum values, nested ones with their names", () => {
    const text = parameterTextOf({
      type: "object",
      properties: {
        channel: { type: "string", description: "Channel to post in." },
        kind: { type: "string", title: "Kind", enum: ["voice", "stage", 3] },
        options: { type: "object", properties: { silent: { type: "boolean", description: "No notification." } } },
        recipients: { type: "array", items: { type: "string", description: "Email address." } },
      },
    });
    expect(text).toBe("Channel to post in. Kind voice stage silent No notification. Email address.");
  });

  it("is empty for a schema without properties", () => {
    expect(parameterTextOf({ type: "object" })).toBe("");
  });

  it("is part of each candidate", () => {
    const [candidate] = toCandidates([
      {
        name: "post",
        summary: "Post",
        description: "Post",
        tags: [],
        inputSchema: { type: "object", properties: { to: { type: "string", enum: ["team", "me"] } } },
      },
    ]);
    expect(candidate.parameterNames).toEqual(["to"]);
    expect(candidate.parameterText).toBe("team me");
  });
});

describe("catalogCorpus", () => {
  it("patches a frozen revision's candidates from the catalog's latest: the same objects as toCandidates gives", () => {
    const tool = (name: string, description: string) =>
      Object.freeze({ name, summary: description, description, tags: [], inputSchema: { type: "object" as const } }) as unknown as Tool;
    let tools = Object.freeze(Array.from({ length: 40 }, (_, index) => tool(`tool_${index}`, `Does thing ${index}.`)));
    expect(catalogCorpus("patched", 1, tools).candidates()).toEqual(toCandidates(tools));
    const revisions = [
      tools.map((each, index) => (index === 7 ? tool(each.name, "Edited.") : each)),
      [tool("new_tool", "New."), ...tools.slice(0, 20), ...tools.slice(21)],
      tools.slice(5),
    ];
    revisions.forEach((revision, index) => {
      tools = Object.freeze(revision);
      const candidates = catalogCorpus("patched", index + 2, tools).candidates();
      expect(candidates, `revision ${index + 2}`).toEqual(toCandidates(tools));
      for (const [position, candidate] of candidates.entries()) expect(candidate).toBe(toCandidates([tools[position]])[0]);
    });
  });
});

describe("toCandidates", () => {
  const schema = () => ({ type: "object" as const, properties: { city: { type: "string", description: "The city." } } });

  it("gives a frozen tool and a frozen copy of it with the same text and schema one candidate, and another for other text", () => {
    const inputSchema = schema();
    const tool = Object.freeze({ name: "weather", summary: "Weather.", description: "The weather.", tags: ["web"], inputSchema });
    const [candidate] = toCandidates([tool]);
    expect(toCandidates([Object.freeze({ ...tool, tags: ["web"] })])[0]).toBe(candidate);
    const renamed = toCandidates([Object.freeze({ ...tool, name: "forecast" })])[0];
    expect(renamed).not.toBe(candidate);
    expect(renamed).toMatchObject({ name: "forecast", parameterText: "The city." });
    expect(toCandidates([Object.freeze({ ...tool, description: "Other." })])[0].description).toBe("Other.");
    expect(toCandidates([Object.freeze({ ...tool, tags: ["maps"] })])[0].tags).toEqual(["maps"]);
  });

  it("makes a tool that is not frozen its own candidate, from its schema as it is now", () => {
    const tool = { name: "weather", summary: "Weather.", description: "The weather.", tags: [], inputSchema: schema() };
    expect(toCandidates([tool])[0].parameterText).toBe("The city.");
    tool.inputSchema.properties.city.description = "Where.";
    expect(toCandidates([tool])[0].parameterText).toBe("Where.");
  });
});
