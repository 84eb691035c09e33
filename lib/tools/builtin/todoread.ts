import { defineBuiltinTool } from "./types";

const DESCRIPTION = `Reads the current to-do list of this session, with each item's status and priority.

Use it to check what remains when resuming work, after a long stretch of tool calls, before deciding what to do next, and before telling the user the work is finished, so that nothing planned is forgotten.

It takes no input. If no list was written yet, the result is an empty list. To change the list, use todowrite.`;

export const todoreadTool = defineBuiltinTool({
  name: "todoread",
  summary: "Read the session's current to-do list with statuses; needed to check remaining steps before continuing or finishing multi-step work.",
  description: DESCRIPTION,
  parameters: {},
  tags: ["planning", "session", "read-only"],
});
