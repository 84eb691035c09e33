import { z } from "zod";
import { defineBuiltinTool } from "./types";

const DESCRIPTION = `Presents the finished implementation plan to the user for approval and asks to leave plan mode.

In plan mode you may only research: read files, search the codebase, fetch documentation and ask questions. You must not change files, run commands that modify anything, or commit. This tool is how the planning phase ends.

When to use:
- You have understood the task and the relevant code well enough that an engineer could implement the plan without further research.
- The plan is complete: not a list of open questions. If requirements are ambiguous, ask the user first, then call this tool.

When not to use:
- The task is pure research or a question ("how does the cache work?"): answer it directly instead of presenting a plan.
- Do not call it repeatedly with small variations; revise the plan only when the user asks for changes.

Writing the plan (markdown):
- Start with one or two sentences stating the goal and the chosen approach, and why, if there were alternatives.
- List the concrete steps in order, naming the files and functions to create or change.
- Say how the result will be verified: which tests to add or run, what to check by hand.
- Mention risks, migrations or breaking changes, and anything deliberately left out.

The user either approves the plan, and the agent switches to a mode where it may implement it, or answers with changes, and you stay in plan mode.`;

export const planTool = defineBuiltinTool({
  name: "plan",
  summary:
    "Submit a finished implementation plan for the user's approval and request to leave plan mode; needed when research in plan mode is done and work should begin.",
  description: DESCRIPTION,
  parameters: {
    plan: z.string().min(1).describe("The complete implementation plan, in markdown."),
  },
  tags: ["planning"],
  requires: { mode: "plan" },
});
