import { describe, expect, it } from "vitest";
import { parameterTextOf, toCandidates } from "../../lib/selection/candidates";

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
