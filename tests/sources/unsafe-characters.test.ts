import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseAgentFile } from "../../lib/sources/agents";
import { adaptMcpTools } from "../../lib/sources/mcp/adapt";
import { loadPlugins } from "../../lib/sources/plugins";
import { parseSkillFile } from "../../lib/sources/skills";

const schema = { type: "object", properties: {} };
const folders: string[] = [];
afterAll(async () => {
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

describe("sources that deliver unsafe characters: that tool or file is a reported problem, the rest still loads", () => {
  it("an MCP server: a tool name with a control, bidirectional control or lone surrogate, or a description with NUL", () => {
    const { tools, problems } = adaptMcpTools("srv", [
      { name: "search", description: "Fine.", inputSchema: schema },
      { name: "evil\u202etxt.exe", description: "Looks harmless.", inputSchema: schema },
      { name: "nul\u0000name", description: "x", inputSchema: schema },
      { name: "half\ud800", description: "x", inputSchema: schema },
      { name: "nul_text", description: "before\u0000after", inputSchema: schema },
    ]);
    expect(tools.map((tool) => tool.mcpName)).toEqual(["search"]);
    expect(problems).toEqual([
      { mcpName: "evil\\u{202E}txt.exe", message: expect.stringContaining("bidirectional control character (U+202E)") },
      { mcpName: "nul\\u{0}name", message: expect.stringContaining("NUL character (U+0000)") },
      { mcpName: "half\\u{D800}", message: expect.stringContaining("lone surrogate (U+D800)") },
      expect.objectContaining({ mcpName: "nul_text", message: expect.stringContaining("NUL character (U+0000)") }),
    ]);
  });

  it("a skill whose description holds NUL", () => {
    expect(() => parseSkillFile('---\nname: release-notes\ndescription: "Drafts\\0 notes."\n---\n', "skills/release-notes/SKILL.md")).toThrow(/NUL character/);
  });

  it("an agent file whose description or permission pattern holds one", () => {
    expect(() => parseAgentFile('---\ndescription: "Reviews\\0."\n---\n', "agents/reviewer.md")).toThrow(/NUL character/);
    expect(() => parseAgentFile('---\ndescription: Reviews.\npermissions:\n  - "bash\\u202e": deny\n---\n', "agents/reviewer.md")).toThrow(/Permission "bash/);
  });

  it("a plugin whose tool description holds NUL is reported; the other plugins load", async () => {
    const folder = await mkdtemp(join(tmpdir(), "toolshed-unsafe-plugins-"));
    folders.push(folder);
    const plugin = (name: string, description: string) =>
      `export default { name: ${JSON.stringify(name)}, tools: [{ name: ${JSON.stringify(`${name}_tool`)}, description: ${JSON.stringify(description)}, args: {} }] };\n`;
    await writeFile(join(folder, "bad.mjs"), plugin("bad", "Breaks\u0000here."));
    await writeFile(join(folder, "good.mjs"), plugin("good", "Works."));
    const { plugins, errors } = await loadPlugins(folder);
    expect(plugins.map((loaded) => loaded.name)).toEqual(["good"]);
    expect(errors).toEqual([expect.objectContaining({ message: expect.stringContaining("NUL character") })]);
  });
});
