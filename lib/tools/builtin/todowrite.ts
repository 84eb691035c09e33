import { z } from "zod";
import { defineBuiltinTool } from "./types";

const DESCRIPTION = `Creates or updates the structured to-do list for the current session. Each call replaces the whole list.

The list helps you keep track of complex work and shows the user your progress and plan.

When to use:
- The task needs three or more distinct steps, or careful planning across several files or components.
- The user gives several tasks at once (a numbered or comma-separated list).
- New requirements or follow-up steps come up while you work: add them immediately.
- When you start a step, mark it in_progress before beginning; when you finish it, mark it completed right away, without batching several completions.

When not to use:
- A single, simple task, or one that takes fewer than three trivial steps.
- Purely conversational or informational requests.
In those cases just do the work: a list would only add noise.

Managing the list:
- Statuses: pending (not started), in_progress (being worked on), completed (done), cancelled (no longer needed).
- Keep exactly one item in_progress at a time.
- Mark an item completed only when it is fully done: not when tests fail, the implementation is partial, or you hit an unresolved error. In that case keep it in_progress and add an item for what blocks you.
- Write items as specific, actionable steps ("Add retry to the upload client"), not vague goals ("Improve reliability").
- Remove items that turn out to be irrelevant rather than leaving them pending.`;

const todoItem = z.object({
  id: z.string().describe("Stable identifier of the item, unique within the list."),
  content: z.string().min(1).describe("What the step is, as a short imperative sentence."),
  status: z.enum(["pending", "in_progress", "completed", "cancelled"]).describe("Current state of the step."),
  priority: z.enum(["high", "medium", "low"]).describe("How important the step is relative to the others."),
});

export const todowriteTool = defineBuiltinTool({
  name: "todowrite",
  summary: "Create or replace the session's to-do list to plan and track progress on multi-step work; needed when a task has three or more steps.",
  description: DESCRIPTION,
  parameters: {
    todos: z.array(todoItem).describe("The complete, updated to-do list."),
  },
  tags: ["planning", "session"],
});
