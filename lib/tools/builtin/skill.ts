import { z } from "zod";
import { defineBuiltinTool } from "./types";

/** Replaced by the pipeline with the name and description of each available skill (SPEC §1). */
export const SKILLS_PLACEHOLDER = "{{skills}}";

const DESCRIPTION = `Loads a skill: a packaged set of instructions, and sometimes scripts and reference files, for a particular kind of task.

Each skill has a name and a description saying when it applies. Only those are listed below; the instructions themselves are loaded when you call this tool, so they cost context only when needed.

When to use:
- As soon as the user's request matches a skill's description, load that skill before starting the work, and follow its instructions.
- When the user names a skill explicitly.

Usage:
- Pass the skill's name exactly as listed.
- The result contains the skill's instructions and the directory it lives in; paths mentioned in the instructions are relative to that directory.
- Do not load a skill that is already loaded in this conversation, and do not load skills speculatively: only those whose description fits the task.
- If no listed skill fits, carry on without one.

Available skills:
${SKILLS_PLACEHOLDER}`;

export const skillTool = defineBuiltinTool({
  name: "skill",
  summary: "Load a named skill's instructions and resources for a specialized kind of task; needed when the request matches an available skill.",
  description: DESCRIPTION,
  parameters: {
    name: z.string().describe("The name of the skill to load, exactly as listed."),
  },
  tags: ["skills", "instructions"],
});
