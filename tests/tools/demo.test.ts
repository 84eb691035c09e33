import { describe, expect, it } from "vitest";
import { DEMO_CATALOG, DEMO_TOOLS } from "../../lib/demo";
import { BUILTIN_TOOLS } from "../../lib/tools/builtin";
import { SUMMARY_MAX, TOOL_NAME_PATTERN } from "../../lib/tools/types";
import { validateToolDraft } from "../../lib/tools/validate";

const DOMAIN_PREFIXES = ["github", "slack", "linear", "jira", "calendar", "postgres", "browser", "storage", "email", "sentry", "stripe", "weather"];

const prefixOf = (name: string) => name.split("_")[0];

describe("demo catalog", () => {
  it("has at least 48 tools", () => {
    expect(DEMO_TOOLS.length).toBeGreaterThanOrEqual(48);
  });

  it.each(DEMO_TOOLS.map((tool) => [tool.name, tool] as const))("%s passes validation as a custom tool", (_name, tool) => {
    expect(validateToolDraft({ ...tool, source: "custom" })).toEqual([]);
  });

  it("names every tool in snake_case with a known domain prefix", () => {
    for (const { name } of DEMO_TOOLS) {
      expect(name).toMatch(TOOL_NAME_PATTERN);
      expect(name).toMatch(/^[a-z]+(_[a-z]+)+$/);
      expect(DOMAIN_PREFIXES, name).toContain(prefixOf(name));
    }
  });

  it("covers every domain, with at least three tools for each of the eight main ones", () => {
    const counts = new Map<string, number>();
    for (const { name } of DEMO_TOOLS) counts.set(prefixOf(name), (counts.get(prefixOf(name)) ?? 0) + 1);
    expect([...counts.keys()].sort()).toEqual([...DOMAIN_PREFIXES].sort());
    for (const main of ["github", "slack", "linear", "calendar", "postgres", "browser", "storage", "email"]) {
      expect(counts.get(main), main).toBeGreaterThanOrEqual(3);
    }
  });

  it("keeps tool names unique across built-in and demo tools", () => {
    const names = [...BUILTIN_TOOLS, ...DEMO_TOOLS].map((tool) => tool.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it("gives every tool a distinct, one-line summary within the limit", () => {
    const summaries = DEMO_TOOLS.map((tool) => tool.summary);
    expect(new Set(summaries).size).toBe(summaries.length);
    for (const summary of summaries) {
      expect(summary.length).toBeLessThanOrEqual(SUMMARY_MAX);
      expect(summary).toMatch(/^[A-Z][^\n]*\.$/);
    }
  });

  it("writes descriptions of one to four sentences that say more than the summary", () => {
    for (const tool of DEMO_TOOLS) {
      const sentences = tool.description.split(/(?<=[.!?])\s+(?=[A-Z])/);
      expect(sentences.length, tool.name).toBeGreaterThanOrEqual(1);
      expect(sentences.length, tool.name).toBeLessThanOrEqual(4);
      expect(tool.description, tool.name).not.toBe(tool.summary);
    }
  });

  it("describes every parameter and forbids unknown ones", () => {
    for (const tool of DEMO_TOOLS) {
      expect(tool.inputSchema.additionalProperties, tool.name).toBe(false);
      for (const [property, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
        expect((schema as { description?: string }).description, `${tool.name}.${property}`).toBeTruthy();
      }
    }
  });

  it("tags every tool with its domain", () => {
    for (const tool of DEMO_TOOLS) expect(tool.tags, tool.name).toContain(prefixOf(tool.name));
  });

  it("identifies itself as the demo catalog", () => {
    expect(DEMO_CATALOG.id).toBe("demo");
    expect(DEMO_CATALOG.name).toBe("Demo");
    expect(DEMO_CATALOG.description.length).toBeGreaterThan(0);
  });
});
