import { describe, expect, it } from "vitest";
import { planApply } from "@/lib/catalogs/apply-plan";
import {
  buildCatalogCode,
  type CatalogCode,
  type CatalogContents,
  formatCatalogCode,
  parseCatalogCode,
  readCatalogCodeText,
} from "@/lib/catalogs/catalog-code";
import { maskReferences, resolveReferences, withSecretReferences } from "@/lib/catalogs/secret-references";
import { ToolshedError } from "@/lib/errors";
import { DEFAULT_AGENTS } from "@/lib/rules/agents";
import { DEFAULT_RULES } from "@/lib/rules/catalog-rules";
import { redactMcpConfig } from "@/lib/sources/mcp";
import { BUILTIN_TOOLS } from "@/lib/tools/builtin";

/** A reference as a catalog file writes it. */
const ref = (name: string) => `\${env:${name}}`;

const SCHEMA = { type: "object" as const, properties: { id: { type: "string" } } };

/** A catalog as readCatalogContents gives it: a built-in, a custom tool, an MCP server's tool and its server (secrets masked). */
function catalog(): CatalogContents {
  return {
    tools: [
      ...BUILTIN_TOOLS.map((tool) => ({ ...tool, source: "builtin" as const, enabled: true, tags: [] })),
      {
        name: "lookup_order",
        source: "custom",
        summary: "Find an order.",
        description: "Finds an order by id.",
        inputSchema: SCHEMA,
        enabled: true,
        tags: ["orders"],
      },
      { name: "gh__search", source: "mcp", summary: "Search.", description: "Searches.", inputSchema: SCHEMA, enabled: true, tags: [] },
    ],
    agents: DEFAULT_AGENTS,
    rules: DEFAULT_RULES,
    mcpServers: [
      redactMcpConfig({ name: "gh", transport: "http", url: "https://user:pw@mcp.example.com/mcp?key=abc&v=1", headers: { Authorization: "Bearer s3cret" } }),
      redactMcpConfig({
        name: "local",
        transport: "stdio",
        command: "node",
        args: ["server.mjs", { value: "tok", secret: true }],
        env: { GITHUB_TOKEN: "ghp_x" },
      }),
    ],
  };
}

/** The catalog's own file, read back as a file would be. */
const fileOf = (contents: CatalogContents): CatalogCode => parseCatalogCode(readCatalogCodeText(formatCatalogCode(buildCatalogCode(contents), "yaml")));

function problemsOf(work: () => unknown): { field?: string; message: string }[] {
  try {
    work();
  } catch (error) {
    if (error instanceof ToolshedError) return error.problems ?? [{ field: error.field, message: error.message }];
    throw error;
  }
  throw new Error("expected a ToolshedError");
}

describe("a catalog file", () => {
  it("writes every secret as a reference to an environment variable and never its value", () => {
    const text = formatCatalogCode(buildCatalogCode(catalog()), "yaml");
    for (const secret of ["s3cret", "abc", "user:pw", "tok", "ghp_x", "********"]) expect(text).not.toContain(secret);
    expect(text).toContain(
      `url: https://${ref("GH_URL_USERNAME")}:${ref("GH_URL_PASSWORD")}@mcp.example.com/mcp?key=${ref("GH_URL_KEY")}&v=${ref("GH_URL_V")}`,
    );
    expect(text).toContain(`Authorization: ${ref("GH_AUTHORIZATION")}`);
    expect(text).toContain(`GITHUB_TOKEN: ${ref("GITHUB_TOKEN")}`);
    expect(text).toContain(`value: ${ref("LOCAL_ARG_1")}`);
  });

  it("keeps a source's tools to their state, custom tools whole, everything by name", () => {
    const document = buildCatalogCode(catalog());
    const names = document.tools?.map((tool) => tool.name) ?? [];
    expect(names).toEqual([...names].sort());
    expect(document.tools?.find((tool) => tool.name === "bash")).toEqual({ name: "bash", source: "builtin", enabled: true, tags: [] });
    expect(document.tools?.find((tool) => tool.name === "lookup_order")).toMatchObject({
      source: "custom",
      description: "Finds an order by id.",
      inputSchema: SCHEMA,
    });
    expect(JSON.stringify(document)).not.toMatch(/revision|exportedAt/);
  });

  it("reads back as the same document, in YAML and JSON", () => {
    const document = buildCatalogCode(catalog());
    for (const format of ["yaml", "json"] as const) expect(parseCatalogCode(readCatalogCodeText(formatCatalogCode(document, format)))).toEqual(document);
  });

  it("names every problem by its path in the file", () => {
    const problems = problemsOf(() =>
      parseCatalogCode({
        format: "toolshed.catalog",
        version: 2,
        tools: [
          { name: "ok", source: "custom", summary: "Fine.", description: "", inputSchema: { type: "array" } },
          { name: "bash", source: "builtin", enabled: "yes" },
          { name: "ok", source: "custom", summary: "Again.", description: "", inputSchema: SCHEMA },
        ],
        agents: [{ name: "build", mode: "boss", description: "", permissions: [], baseTools: [] }],
        mcpServers: [{ name: "gh", transport: "http", url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer plain" } }],
      }),
    );
    const fields = problems.map((problem) => problem.field);
    expect(fields).toEqual(expect.arrayContaining(["tools.0.inputSchema.type", "tools.1.enabled", "agents.0.mode", "mcpServers.0.headers.Authorization"]));
    expect(problems.find((problem) => problem.field === "mcpServers.0.headers.Authorization")?.message).toContain(ref("NAME"));
  });

  it("refuses a reference where no secret goes, and a file of another format or version", () => {
    const stdio = { name: "x", transport: "stdio", command: ref("CMD"), args: [`--token=${ref("T")}`] };
    expect(problemsOf(() => parseCatalogCode({ format: "toolshed.catalog", version: 2, mcpServers: [stdio] })).map((p) => p.field)).toEqual([
      "mcpServers.0.command",
      "mcpServers.0.args.0",
    ]);
    expect(problemsOf(() => parseCatalogCode({ format: "toolshed.catalog", version: 1, tools: [] }))[0].field).toBe("version");
    expect(() => readCatalogCodeText("tools: [\n")).toThrow(/line \d+/);
    // Aliases that expand a small file into a huge one are refused as a bad file, not a server error.
    const laughs = [
      "a: &a [x, x, x, x, x, x, x, x, x]",
      ..."bcdefgh".split("").map((name, index) => `${name}: &${name} [${Array(9).fill(`*${"abcdefgh"[index]}`).join(", ")}]`),
    ];
    expect(() => readCatalogCodeText(laughs.join("\n"))).toThrow(expect.objectContaining({ code: "bad_request", message: expect.stringContaining("alias") }));
    expect(() => readCatalogCodeText("tools: *nowhere")).toThrow(expect.objectContaining({ code: "bad_request" }));
  });

  it("resolves references from the environment given, percent-encoded in a URL, and names each one missing", () => {
    const server = {
      name: "gh",
      transport: "http" as const,
      url: `https://mcp.example.com/mcp?key=${ref("KEY")}`,
      headers: { Authorization: `Bearer ${ref("TOKEN")}` },
    };
    expect(resolveReferences(server, { KEY: "a b&c", TOKEN: "t" }, "mcpServers.0").config).toEqual({
      ...server,
      url: "https://mcp.example.com/mcp?key=a%20b%26c",
      headers: { Authorization: "Bearer t" },
    });
    expect(resolveReferences(server, {}, "mcpServers.0").problems.map((problem) => problem.field)).toEqual([
      "mcpServers.0.url",
      "mcpServers.0.headers.Authorization",
    ]);
    // An empty value is no secret.
    expect(resolveReferences(server, { KEY: "", TOKEN: "t" }, "mcpServers.0").problems.map((problem) => problem.field)).toEqual(["mcpServers.0.url"]);
    expect(resolveReferences(server, undefined, "mcpServers.0").problems[0].message).toContain("command line");
    // What is compared with a stored configuration: the references where its masks are.
    expect(maskReferences(withSecretReferences(catalog().mcpServers[0]))).toEqual(catalog().mcpServers[0]);
  });
});

describe("planApply", () => {
  it("finds nothing to do when a catalog's own file is applied to it", () => {
    const plan = planApply(fileOf(catalog()), catalog(), { prune: true });
    expect(plan.summary).toEqual({ created: [], changed: [], unchanged: BUILTIN_TOOLS.length + 2 + 4 + 4 + 2, deleted: [], pending: [] });
  });

  it("creates, changes with the fields that differ, and deletes only with prune", () => {
    const file = fileOf(catalog());
    file.tools = [
      ...(file.tools ?? []).filter((tool) => tool.name !== "lookup_order"),
      { name: "refund", source: "custom", summary: "Refund an order.", description: "", inputSchema: SCHEMA, enabled: true, tags: [] },
    ];
    file.tools = file.tools.map((tool) => (tool.name === "bash" ? { ...tool, enabled: false, tags: ["shell"] } : tool));
    file.agents = file.agents?.map((agent) => (agent.name === "plan" ? { ...agent, baseTools: ["read"] } : agent));
    file.rules = { ...file.rules, modelRules: [...(file.rules?.modelRules ?? [])].reverse() };
    const kept = planApply(file, catalog(), { prune: false });
    expect(kept.summary.created).toEqual(["tools/refund"]);
    expect(kept.summary.changed).toEqual([
      { name: "tools/bash", fields: ["enabled", "tags"] },
      { name: "agents/plan", fields: ["baseTools"] },
      { name: "rules/modelRules", fields: ["order"] },
    ]);
    expect(kept.summary.deleted).toEqual([]);
    expect(kept.tools.update).toEqual([{ name: "bash", changes: { enabled: false, tags: ["shell"] } }]);
    const pruned = planApply(file, catalog(), { prune: true });
    expect(pruned.summary.deleted).toEqual(["tools/lookup_order"]);
    expect(pruned.tools.delete).toEqual(["lookup_order"]);
  });

  it("leaves a source's tool it lacks pending, and lets agents name it", () => {
    const empty: CatalogContents = { ...catalog(), tools: catalog().tools.filter((tool) => tool.source !== "mcp"), mcpServers: [] };
    const file = fileOf(catalog());
    file.agents = file.agents?.map((agent) =>
      agent.name === "build" ? { ...agent, baseTools: [...agent.baseTools.filter((name) => name === "bash"), "gh__search"] } : agent,
    );
    const plan = planApply(file, empty, { prune: false });
    expect(plan.summary.pending.map((entry) => entry.name)).toEqual(["tools/gh__search"]);
    expect(plan.summary.created).toEqual(["mcpServers/gh", "mcpServers/local"]);
    expect(plan.mcpServers.create.map((server) => server.name)).toEqual(["gh", "local"]);
  });

  it("replaces a server whose configuration differs, and deletes one the file drops (with its tools) only with prune", () => {
    const file = fileOf(catalog());
    file.mcpServers = [
      { ...(file.mcpServers?.[0] as Extract<NonNullable<CatalogCode["mcpServers"]>[number], { transport: "http" }>), url: "https://other.example.com/mcp" },
    ];
    const plan = planApply(file, catalog(), { prune: true });
    expect(plan.summary.changed).toEqual([{ name: "mcpServers/gh", fields: ["url"] }]);
    expect(plan.mcpServers.replace.map((server) => server.name)).toEqual(["gh"]);
    expect(plan.summary.deleted).toEqual(["mcpServers/local"]);
    expect(planApply(file, catalog(), { prune: false }).summary.deleted).toEqual([]);
  });

  it("refuses a tool of another source under the same name, and agents or rules that name tools the catalog will not have", () => {
    const file = fileOf(catalog());
    file.tools = [
      ...(file.tools ?? []).filter((tool) => tool.name !== "lookup_order" && tool.name !== "bash"),
      { name: "bash", source: "custom", summary: "Mine.", description: "", inputSchema: SCHEMA, enabled: true, tags: [] },
    ];
    file.agents = [{ name: "support", mode: "primary", description: "", permissions: [], baseTools: ["lookup_order"] }];
    file.rules = { overrides: [{ tool: "lookup_order", models: [], summary: "Find it." }] };
    const fields = problemsOf(() => planApply(file, catalog(), { prune: true })).map((problem) => problem.field);
    expect(fields).toEqual([`tools.${file.tools.length - 1}.source`, "agents.0.baseTools.0", "rules.overrides.0.tool"]);
  });

  it("carries overrides' parameter defaults and annotations through the file, checking each default against the tool's schema (a custom tool's as the file has it)", () => {
    const overrides = [
      { tool: "gh__search", models: [], defaults: { id: "main" }, annotations: { readOnlyHint: true, title: "Search" } },
      { tool: "lookup_order", models: ["gpt-*"], defaults: { id: 7 } },
    ];
    const file = fileOf({ ...catalog(), rules: { ...DEFAULT_RULES, overrides: overrides.slice(0, 1) } });
    expect(file.rules?.overrides).toEqual(overrides.slice(0, 1));
    file.rules = { overrides };
    expect(problemsOf(() => planApply(file, catalog(), { prune: false }))).toEqual([
      {
        field: "rules.overrides.1.defaults.id",
        message: 'The default 7 for "id" of tool "lookup_order" does not match the parameter\'s schema: must be string.',
      },
    ]);
    file.tools = (file.tools ?? []).map((tool) =>
      tool.name === "lookup_order" && tool.source === "custom" ? { ...tool, inputSchema: { type: "object", properties: { id: { type: "integer" } } } } : tool,
    );
    expect(planApply(file, catalog(), { prune: false }).summary.changed.map((change) => change.name)).toEqual(["tools/lookup_order", "rules/overrides"]);
  });
});
