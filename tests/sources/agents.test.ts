import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadAgentFiles, parseAgentFile } from "../../lib/sources/agents";
import { sourceFolders } from "../../lib/sources/folders";
import { SourceFileError } from "../../lib/sources/source-file";
import { AgentSchema } from "../../lib/rules/agents";

function parseError(text: string, file = "agents/reviewer.md"): SourceFileError {
  try {
    parseAgentFile(text, file);
  } catch (error) {
    if (error instanceof SourceFileError) return error;
    throw error;
  }
  throw new Error("expected the agent file to be rejected");
}

describe("parseAgentFile", () => {
  it("reads permissions as an ordered list, base tools and the prompt", () => {
    const agent = parseAgentFile(
      [
        "---",
        "name: security",
        "description: Audits code for vulnerabilities.",
        "mode: all",
        "permissions:",
        '  - "*": deny',
        "  - read: allow",
        "  - task:*: ask",
        "  - skill:db-*: allow",
        "baseTools:",
        "  - read",
        "  - grep",
        "---",
        "You audit code.",
      ].join("\n"),
      "agents/security.md",
    );
    expect(agent).toEqual({
      name: "security",
      description: "Audits code for vulnerabilities.",
      mode: "all",
      permissions: [
        { pattern: "*", action: "deny" },
        { pattern: "read", action: "allow" },
        { pattern: "task:*", action: "ask" },
        { pattern: "skill:db-*", action: "allow" },
      ],
      baseTools: ["read", "grep"],
      prompt: "You audit code.",
    });
  });

  it("takes the name from the file, defaults to subagent and accepts permissions as a map", () => {
    const agent = parseAgentFile('---\ndescription: Writes docs.\npermissions:\n  "*": allow\n  bash: deny\n---\n', "agents/docs-writer.md");
    expect(agent).toMatchObject({
      name: "docs-writer",
      mode: "subagent",
      permissions: [
        { pattern: "*", action: "allow" },
        { pattern: "bash", action: "deny" },
      ],
      baseTools: [],
    });
  });

  it("reads permissions and base tools written as flow collections, in file order (numeric patterns too)", () => {
    const agent = parseAgentFile(
      '---\ndescription: >-\n  Writes\n  docs.\npermissions: {"*": deny, "2024": allow, docs_*: ask}\nbaseTools: [read, "grep"]\n---\nPrompt',
      "agents/docs.md",
    );
    expect(agent).toMatchObject({
      description: "Writes docs.",
      permissions: [
        { pattern: "*", action: "deny" },
        { pattern: "2024", action: "allow" },
        { pattern: "docs_*", action: "ask" },
      ],
      baseTools: ["read", "grep"],
      prompt: "Prompt",
    });
  });

  it("accepts empty permissions and base tools as none", () => {
    expect(parseAgentFile("---\ndescription: x\npermissions:\nbaseTools:\n---\n", "agents/empty.md")).toMatchObject({ permissions: [], baseTools: [] });
  });

  it("points at the line of the entry that is wrong", () => {
    const text = ["---", "description: x", "permissions:", '  - "*": allow', "  - bash: never", "baseTools:", "  - read", '  - "web fetch"', "---"].join("\n");
    expect(parseError(text)).toMatchObject({ line: 5, detail: 'Permission "bash": the action "never" is not one of allow, ask, deny.' });
    const tools = ["---", "description: x", "baseTools:", "  - read", '  - "web fetch"', "---"].join("\n");
    expect(parseError(tools)).toMatchObject({ line: 5, detail: expect.stringMatching(/^Base tool "web fetch"/) });
    expect(parseError("---\ndescription: x\nmode: [all]\n---\n")).toMatchObject({ line: 3, detail: '"mode" must be text, not a list.' });
  });

  it.each([
    ["no front matter", "You review code.\n", /must start with a line '---'/],
    ["no description", "---\nname: reviewer\n---\n", /no "description"/],
    ["an invalid name", "---\nname: Code Reviewer\ndescription: x\n---\n", /agent name "Code Reviewer"/],
    ["an unknown mode", "---\ndescription: x\nmode: helper\n---\n", /mode "helper" is not one of primary, subagent, all/],
    ["an unknown action", "---\ndescription: x\npermissions:\n  - bash: never\n---\n", /action "never" is not one of allow, ask, deny/],
    ["a permission without an action", "---\ndescription: x\npermissions:\n  - bash\n---\n", /"pattern: action"/],
    ["an invalid pattern", '---\ndescription: x\npermissions:\n  - "bash(rm)": deny\n---\n', /Permission "bash\(rm\)": Pattern may contain only/],
    ["permissions as text", "---\ndescription: x\npermissions: all\n---\n", /must be a list of "pattern: action" entries or a map/],
    ["base tools as text", "---\ndescription: x\nbaseTools: read\n---\n", /"baseTools" must be a list/],
    ["an invalid tool name", '---\ndescription: x\nbaseTools: [read, "web fetch"]\n---\n', /Base tool "web fetch"/],
    [
      "a nested map",
      "---\ndescription: x\npermissions:\n  bash:\n    rm: deny\n---\n",
      /Permission "bash": the action must be one of allow, ask, deny, not a map/,
    ],
    [
      "a list in a permission",
      "---\ndescription: x\npermissions:\n  - bash: [deny]\n---\n",
      /Permission "bash": the action must be one of allow, ask, deny, not a list/,
    ],
    ["a map among base tools", "---\ndescription: x\nbaseTools:\n  - read: yes\n---\n", /"baseTools" holds tool names, not a map/],
    [
      "an unknown key",
      "---\ndescription: x\npermission:\n  - bash: deny\n---\n",
      /Unknown front-matter key "permission"; expected name, description, mode, permissions, baseTools/,
    ],
    ["a description over 2000 characters", `---\ndescription: ${"a".repeat(2001)}\n---\n`, /"description": Too big/],
  ])("rejects %s", (_case, text, message) => {
    expect(parseError(text).detail).toMatch(message);
  });
});

describe("loadAgentFiles", () => {
  let folder: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "toolshed-agents-"));
    await writeFile(join(folder, "a-reviewer.md"), "---\nname: reviewer\ndescription: Reviews.\n---\n");
    await writeFile(join(folder, "b-reviewer.md"), "---\nname: reviewer\ndescription: Reviews again.\n---\n");
    await writeFile(join(folder, "broken.md"), "---\ndescription: x\nmode: boss\n---\n");
    await writeFile(join(folder, "README.md"), "How to write agent files.");
    await writeFile(join(folder, "notes.txt"), "ignored");
  });

  afterAll(() => rm(folder, { recursive: true, force: true }));

  it("loads the good files and reports duplicates and broken files", async () => {
    const { agents, errors } = await loadAgentFiles(folder);
    expect(agents.map((agent) => [agent.name, agent.file])).toEqual([["reviewer", join(folder, "a-reviewer.md")]]);
    expect(errors).toEqual([
      { file: join(folder, "b-reviewer.md"), message: `Another agent file (${join(folder, "a-reviewer.md")}) already defines "reviewer".` },
      { file: join(folder, "broken.md"), line: 3, message: 'The mode "boss" is not one of primary, subagent, all.' },
    ]);
  });

  it("loads the shipped example as a valid read-only subagent", async () => {
    const { agents, errors } = await loadAgentFiles("agents");
    expect(errors).toEqual([]);
    const [reviewer] = agents;
    expect(AgentSchema.parse(reviewer)).toMatchObject({ name: "reviewer", mode: "subagent", baseTools: ["read", "grep", "glob"] });
    expect(reviewer.permissions.filter((rule) => rule.action === "deny").map((rule) => rule.pattern)).toEqual(["edit", "write", "apply_patch", "bash", "task"]);
  });
});

describe("sourceFolders", () => {
  it("defaults to the repository folders and follows the environment", () => {
    expect(sourceFolders({})).toEqual({ plugins: "./plugins", skills: "./skills", agents: "./agents" });
    expect(sourceFolders({ TOOLSHED_PLUGINS_DIR: "/srv/plugins", TOOLSHED_SKILLS_DIR: "", TOOLSHED_AGENTS_DIR: "/srv/agents" })).toEqual({
      plugins: "/srv/plugins",
      skills: "./skills",
      agents: "/srv/agents",
    });
  });
});
