import { z } from "zod";
import { defineDemoTool, type DemoTool } from "./types";

const issueKey = z
  .string()
  .regex(/^[A-Z][A-Z0-9]+-\d+$/)
  .describe('Jira issue key, e.g. "OPS-482".');

export const JIRA_TOOLS: DemoTool[] = [
  defineDemoTool({
    name: "jira_search_issues",
    summary: "Search Jira issues with a JQL query and get keys, summaries, statuses, assignees and priorities.",
    description:
      'Runs a JQL query and returns the matching issues, with the requested fields. Examples: "project = OPS AND status != Done ORDER BY priority DESC", "assignee = currentUser() AND sprint in openSprints()". At most 100 issues per call.',
    parameters: {
      jql: z.string().min(1).describe("JQL query."),
      fields: z.array(z.string()).default(["summary", "status", "assignee", "priority", "updated"]).describe("Fields to return for each issue."),
      maxResults: z.int().min(1).max(100).default(50).describe("Maximum number of issues."),
    },
    tags: ["jira", "issues", "search", "read-only"],
  }),
  defineDemoTool({
    name: "jira_create_issue",
    summary: "Create a Jira issue (bug, task, story) in a project with summary, description, priority and assignee.",
    description:
      "Creates an issue and returns its key and URL. Projects can require additional fields; when creation fails, the error lists the missing ones. The description is plain text with Jira wiki markup.",
    parameters: {
      projectKey: z.string().describe('Project key, e.g. "OPS".'),
      issueType: z.enum(["Bug", "Task", "Story", "Epic", "Sub-task"]).describe("Kind of issue."),
      summary: z.string().min(1).max(255).describe("One-line summary."),
      description: z.string().optional().describe("Details, in Jira wiki markup."),
      priority: z.enum(["Highest", "High", "Medium", "Low", "Lowest"]).optional().describe("Priority."),
      assignee: z.string().optional().describe("Account ID or email of the assignee."),
      parentKey: z.string().optional().describe("Parent issue key; required for Sub-task."),
    },
    tags: ["jira", "issues", "project-management", "write"],
  }),
  defineDemoTool({
    name: "jira_transition_issue",
    summary: "Move a Jira issue through its workflow (e.g. To Do → In Progress → Done), optionally with a comment.",
    description:
      "Applies a workflow transition to an issue by the name of the target status. Only transitions allowed from the current status work; on failure the error lists the available ones. A resolution can be set when closing.",
    parameters: {
      issueKey,
      toStatus: z.string().describe('Name of the target status, e.g. "In Progress" or "Done".'),
      resolution: z.string().optional().describe('Resolution when closing, e.g. "Fixed" or "Won\'t Do".'),
      comment: z.string().optional().describe("Comment to add with the transition."),
    },
    tags: ["jira", "issues", "workflow", "write"],
  }),
  defineDemoTool({
    name: "jira_add_comment",
    summary: "Comment on a Jira issue, optionally restricted to a project role such as Developers.",
    description:
      "Adds a comment to an issue and returns its ID. Restricted comments are visible only to members of the given role, which suits internal notes on customer-visible issues.",
    parameters: {
      issueKey,
      body: z.string().min(1).describe("Comment text in Jira wiki markup."),
      visibleToRole: z.string().optional().describe("Project role that may see the comment."),
    },
    tags: ["jira", "issues", "write"],
  }),
];
