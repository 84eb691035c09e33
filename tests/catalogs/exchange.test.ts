import { describe, expect, it } from "vitest";
import { EXPORT_FORMAT, IMPORT_MAX_TOOLS, parseImport } from "@/lib/catalogs/exchange";

const exported = {
  name: "ticket_search",
  source: "custom",
  summary: "Search tickets.",
  description: "Search tickets.",
  inputSchema: { type: "object", properties: {} },
  enabled: true,
  tags: ["support"],
};

function problemOf(document: unknown) {
  try {
    parseImport(document);
  } catch (error) {
    return error as { code: string; message: string; field?: string; problems?: { field: string; message: string }[] };
  }
  throw new Error("parseImport accepted the document");
}

describe("import formats", () => {
  it("refuses an unknown format or version, naming what is supported", () => {
    const unknown = problemOf({ format: "toolshed.catalog.v2", version: 1, tools: [exported] });
    expect(unknown).toMatchObject({ code: "bad_request", field: "format" });
    expect(unknown.message).toContain('Unknown format "toolshed.catalog.v2"');
    expect(unknown.message).toContain(`"${EXPORT_FORMAT}" version 1`);
    const future = problemOf({ format: EXPORT_FORMAT, version: 99, tools: [exported] });
    expect(future).toMatchObject({ code: "bad_request", field: "version" });
    expect(future.message).toContain("Unsupported version 99");
    expect(problemOf({ format: EXPORT_FORMAT, tools: [exported] }).field).toBe("version");
    expect(problemOf({ version: 1, tools: [exported] }).field).toBe("version");
  });

  it("refuses labelled-set entries whose other fields would be lost", () => {
    const lossy = problemOf({ tools: [{ name: "a_tool", description: "Does a.", parameters: { type: "object" }, summary: "A.", tags: ["x"] }] });
    expect(lossy.problems?.map((problem) => problem.field)).toEqual(["tools.0.summary", "tools.0.tags"]);
  });

  it("still reads both supported documents", () => {
    expect(parseImport({ format: EXPORT_FORMAT, version: 1, exportedAt: "2026-01-01T00:00:00.000Z", tools: [exported] })).toEqual([
      {
        name: "ticket_search",
        source: "custom",
        summary: "Search tickets.",
        description: "Search tickets.",
        inputSchema: { type: "object", properties: {} },
        tags: ["support"],
        enabled: true,
      },
    ]);
    expect(parseImport({ tools: [{ name: "a_tool", description: "Does a.", parameters: { type: "object", properties: {} } }] })[0]).toMatchObject({
      name: "a_tool",
      source: "custom",
      summary: "Does a.",
    });
  });

  it("takes up to 50,000 tools, the limit of every import path", () => {
    expect(IMPORT_MAX_TOOLS).toBe(50_000);
    // Past the old 20,000 the tools are read (and these are refused for what they are), not the count.
    expect(problemOf({ tools: Array(20_001).fill(null) })).toMatchObject({ code: "bad_request", field: "tools.0" });
    expect(problemOf({ tools: Array(50_001).fill(null) })).toMatchObject({ code: "too_large", field: "tools" });
  });
});
