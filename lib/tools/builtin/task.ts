import { z } from "zod";
import { defineBuiltinTool } from "./types";

/** Replaced by the pipeline with the subagents the current agent may delegate to (SPEC §2, stage 6). */
export const SUBAGENTS_PLACEHOLDER = "{{subagents}}";

const DESCRIPTION = `Launches a subagent to carry out a multi-step task on its own and report back.

A subagent starts with a fresh context: it does not see this conversation, only the prompt you write. It works autonomously with its own tools, and when it finishes it returns a single message with its result. That message is visible to you, not to the user: summarize what matters for the user yourself.

When to use:
- Open-ended searches across a codebase that will take several rounds of grep, glob and read ("where is authentication handled?", "which modules still use the old logger?"). Delegating keeps the raw search output out of your context.
- Work that matches the specialty of one of the subagents listed below, as its description says.
- Several independent investigations: launch several subagents at once, in one message with several tool calls, so they run in parallel.

When not to use:
- To read a specific file whose path you know: use read.
- To find a specific class or function definition such as "class UserService": use grep or glob, which are faster.
- To search within two or three known files: use read.
- For tasks unrelated to the subagent descriptions, or trivial ones you can do in one or two tool calls yourself.

Writing the prompt:
- Make it self-contained: state the goal, the relevant paths, names and constraints you already know, and what is out of scope.
- Say exactly what the subagent should return (a list of file paths, a summary of findings, a patch description) and whether it should only research or also change code; it cannot ask you follow-up questions.
- Describe the result you need, not the steps: the subagent plans its own work.
- Trust the result in general, but verify claims that matter before you act on them.

Sessions:
- Each call starts a new subagent unless you pass sessionId from an earlier result, which continues that subagent with its previous context.

Available subagents and when to use them:
${SUBAGENTS_PLACEHOLDER}`;

export const taskTool = defineBuiltinTool({
  name: "task",
  summary:
    "Delegate a complex, multi-step task or broad codebase search to a specialized subagent that works autonomously and reports back; needed when work should run in its own context.",
  description: DESCRIPTION,
  parameters: {
    description: z.string().describe("A short (3-5 words) label for the task, shown to the user."),
    prompt: z.string().describe("The complete, self-contained instructions for the subagent, including what it must return."),
    subagentType: z.string().describe("Name of the subagent to run, one of those listed in the description."),
    sessionId: z.string().optional().describe("Continue an earlier subagent session instead of starting a new one."),
  },
  tags: ["agents", "delegation"],
});
