import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSkills, parseSkillFile, skillToolDraft } from "../../lib/sources/skills";
import { SourceFileError } from "../../lib/sources/source-file";
import { validateToolDraft } from "../../lib/tools/validate";

const FILE = "skills/release-notes/SKILL.md";

function parseError(text: string, file = FILE): SourceFileError {
  try {
    parseSkillFile(text, file);
  } catch (error) {
    if (error instanceof SourceFileError) return error;
    throw error;
  }
  throw new Error("expected the skill file to be rejected");
}

describe("parseSkillFile", () => {
  it("reads name, description and body", () => {
    const skill = parseSkillFile("---\nname: release-notes\ndescription: Drafts release notes.\n---\n\n# Steps\n1. Tag.\n", FILE);
    expect(skill).toEqual({ name: "release-notes", description: "Drafts release notes.", body: "# Steps\n1. Tag." });
  });

  it("reads folded and literal descriptions, quoted values, CRLF and comments", () => {
    const folded = parseSkillFile(
      "---\r\n# a comment\r\nname: 'release-notes'\r\ndescription: >\r\n  Drafts release\r\n  notes.\r\n\r\n  Use for changelogs.\r\n---\r\nBody\r\n",
      FILE,
    );
    expect(folded.description).toBe("Drafts release notes.\nUse for changelogs.");
    const literal = parseSkillFile('---\nname: "release-notes" # quoted\ndescription: |-\n  Line one\n  Line two\n---\n', FILE);
    expect(literal.description).toBe("Line one\nLine two");
    expect(literal.body).toBe("");
  });

  it("reads multi-line descriptions: folded (>), literal (|), plain and quoted over several lines", () => {
    const folded = parseSkillFile(
      [
        "---",
        "name: release-notes",
        "description: >",
        "  Drafts release notes",
        "  from merged pull requests.",
        "",
        "    - grouped by area",
        "  Use for changelogs.",
        "---",
      ].join("\n"),
      FILE,
    );
    expect(folded.description).toBe("Drafts release notes from merged pull requests.\n\n  - grouped by area\nUse for changelogs.");
    const literal = parseSkillFile(["---", "name: release-notes", "description: |", "  Line one", "    indented", "  Line three", "---"].join("\n"), FILE);
    expect(literal.description).toBe("Line one\n  indented\nLine three");
    const plain = parseSkillFile("---\nname: release-notes\ndescription: Drafts\n  release notes.\n---\n", FILE);
    expect(plain.description).toBe("Drafts release notes.");
    const quoted = parseSkillFile('---\nname: release-notes\ndescription: "Drafts: release\n  notes."\n---\n', FILE);
    expect(quoted.description).toBe("Drafts: release notes.");
  });

  it("accepts nested metadata and flow maps, as other agents' skills use them", () => {
    const nested = parseSkillFile(
      [
        "---",
        "name: release-notes",
        "description: Drafts notes.",
        "metadata:",
        "  author: platform-team",
        '  version: "1.0"',
        "  tags: [release, docs]",
        "  owners:",
        "    - name: Ada",
        "      email: ada@example.com",
        "  review:",
        "    required: true",
        "    approvers: {lead: bob, backup: [carol, dan]}",
        "allowed-tools: Bash(git:*) Read",
        "---",
        "Body",
      ].join("\n"),
      FILE,
    );
    expect(nested).toEqual({ name: "release-notes", description: "Drafts notes.", body: "Body" });
    const flow = parseSkillFile(
      '---\nname: release-notes\ndescription: Drafts notes.\nmetadata: {author: platform, "version": 2, nested: {deep: [a, b]}}\n---\n',
      FILE,
    );
    expect(flow.name).toBe("release-notes");
  });

  it("keeps every value text (failsafe schema): yes, 1.0 and null mean what they say", () => {
    const skill = parseSkillFile("---\nname: release-notes\ndescription: null\n---\n", FILE);
    expect(skill.description).toBe("null");
    expect(parseSkillFile("---\nname: release-notes\ndescription: 1.0\n---\n", FILE).description).toBe("1.0");
  });

  it("accepts the optional keys of the Agent Skills format", () => {
    const skill = parseSkillFile(
      "---\nname: release-notes\ndescription: Drafts notes.\nlicense: MIT\nallowed-tools: [read, \"bash\"]\nmetadata:\n  owner: platform\n  version: '1.0'\n---\n",
      FILE,
    );
    expect(skill.name).toBe("release-notes");
  });

  it.each([
    ["no front matter at all", "# Release notes\n", /must start with a line '---'/, 1],
    ["front matter never closed", "---\nname: release-notes\ndescription: x\n", /never closed/, 1],
    ["no name", "---\ndescription: Drafts notes.\n---\n", /no "name"/, undefined],
    ["an empty name", "---\nname:\ndescription: Drafts notes.\n---\n", /no "name"/, 2],
    ["uppercase in the name", "---\nname: Release-Notes\ndescription: x\n---\n", /lowercase letters and digits/, 2],
    ["a double hyphen", "---\nname: release--notes\ndescription: x\n---\n", /single hyphens/, 2],
    ["a name other than the folder", "---\nname: changelog\ndescription: x\n---\n", /must equal the skill's folder name "release-notes"/, 2],
    ["no description", "---\nname: release-notes\n---\n", /no "description"/, undefined],
    ["a blank block description", "---\nname: release-notes\ndescription: >\n\n---\n", /no "description"/, 3],
    ["a description over 1024 characters", `---\nname: release-notes\ndescription: ${"a".repeat(1025)}\n---\n`, /1025 characters long; the limit is 1024/, 3],
    ["an unknown key", "---\nname: release-notes\ndescriptoin: x\n---\n", /Unknown front-matter key "descriptoin"/, 3],
    ["a duplicated key", "---\nname: release-notes\nname: release-notes\ndescription: x\n---\n", /"name" is given twice/, 3],
    ["an unquoted colon", "---\nname: release-notes\ndescription: Use when: asked\n---\n", /quote a value that contains ": "/, 3],
    ["an unclosed quote", '---\nname: "release-notes\ndescription: x\n---\n', /A quoted value is not closed \(YAML: Missing closing "quote\)/, 2],
    ["an unclosed flow list", "---\nname: release-notes\nallowed-tools: [read, grep\ndescription: x\n---\n", /end with a \]/, 4],
    ["an alias without its anchor", "---\nname: *other\ndescription: x\n---\n", /The alias "\*other" refers to no anchor "&other" before it/, 2],
    ["an unknown tag", "---\nname: !shout release-notes\ndescription: x\n---\n", /Invalid YAML: Unresolved tag: !shout/, 2],
    ["a tab as indentation", "---\nname: release-notes\nmetadata:\n\towner: x\ndescription: x\n---\n", /Tabs cannot be used for indentation/, 4],
    [
      "a block scalar not indented",
      "---\nname: release-notes\ndescription: >\nDrafts.\n---\n",
      /Expected "key: value"; the lines of a value that goes on below its key must be indented/,
      4,
    ],
    ["a list where text is expected", "---\nname: release-notes\ndescription:\n  - one\n---\n", /"description" must be text, not a list/, 3],
    ["a map where text is expected", "---\nname: release-notes\ndescription: {short: x}\n---\n", /"description" must be text, not a map/, 3],
    [
      "allowed-tools as a map",
      "---\nname: release-notes\ndescription: x\nallowed-tools: {read: yes}\n---\n",
      /"allowed-tools" must be text or a list of tool names/,
      4,
    ],
    ["a line that is not key: value", "---\nname release-notes\ndescription: x\n---\n", /Expected "key: value"/, 2],
    ["a list instead of keys", "---\n- name: release-notes\n---\n", /must be "key: value" lines, not a list/, 2],
  ])("rejects %s with a clear message", (_case, text, message, line) => {
    const error = parseError(text);
    expect(error.detail).toMatch(message);
    expect(error.line).toBe(line);
    expect(error.message.startsWith(`${FILE}`)).toBe(true);
  });

  it("rejects a skill named like a built-in tool", () => {
    const error = parseError("---\nname: bash\ndescription: Runs scripts.\n---\n", "skills/bash/SKILL.md");
    expect(error.detail).toMatch(/taken by a built-in tool/);
  });
});

describe("loadSkills", () => {
  let folder: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "toolshed-skills-"));
    const write = async (path: string, text: string) => {
      await mkdir(join(folder, path, ".."), { recursive: true });
      await writeFile(join(folder, path), text);
    };
    await write("good/SKILL.md", "---\nname: good\ndescription: A skill that loads.\n---\nDo it well.\n");
    await write("bad/SKILL.md", "---\nname: wrong-name\ndescription: x\n---\n");
    await mkdir(join(folder, "empty"));
    await write("README.md", "not a skill");
  });

  afterAll(() => rm(folder, { recursive: true, force: true }));

  it("loads the good skills and reports each bad one", async () => {
    const { skills, errors } = await loadSkills(folder);
    expect(skills).toEqual([{ name: "good", description: "A skill that loads.", body: "Do it well.", file: join(folder, "good/SKILL.md") }]);
    expect(errors).toEqual([
      { file: join(folder, "bad/SKILL.md"), line: 2, message: expect.stringMatching(/must equal the skill's folder name "bad"/) },
      { file: join(folder, "empty/SKILL.md"), message: 'The folder "empty" has no SKILL.md.' },
    ]);
  });

  it("treats a missing folder as no skills", async () => {
    expect(await loadSkills(join(folder, "missing"))).toEqual({ skills: [], errors: [] });
  });

  it("loads the shipped example skills as valid skill tools", async () => {
    const { skills, errors } = await loadSkills("skills");
    expect(errors).toEqual([]);
    expect(skills.map((skill) => skill.name)).toEqual(["db-migration", "release-notes"]);
    for (const skill of skills) {
      const draft = skillToolDraft(skill);
      expect(draft).toMatchObject({ name: skill.name, source: "skill", description: skill.description });
      expect(validateToolDraft(draft)).toEqual([]);
    }
  });
});
