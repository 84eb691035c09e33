import { z } from "zod";
import { defineDemoTool, type DemoTool } from "./types";

const issueId = z.string().describe('Issue identifier such as "ENG-123", or its UUID.');
const priority = z.int().min(0).max(4).describe("Linear priority: 0 none, 1 urgent, 2 high, 3 medium, 4 low.");

export const LINEAR_TOOLS: DemoTool[] = [
  defineDemoTool({
    name: "linear_create_issue",
    summary: "Create a Linear issue in a team with title, markdown description, priority, assignee, labels and project.",
    description:
      "Creates an issue in a Linear team and returns its identifier (e.g. ENG-123) and URL. The team key is the prefix of the team's issue identifiers. New issues start in the team's default state, usually Triage or Backlog.",
    parameters: {
      teamKey: z.string().describe('Key of the team, e.g. "ENG"; see linear_list_teams.'),
      title: z.string().min(1).describe("Issue title."),
      description: z.string().optional().describe("Issue description in markdown."),
      priority: priority.optional(),
      assigneeEmail: z.email().optional().describe("Email of the member to assign."),
      labels: z.array(z.string()).optional().describe("Label names; unknown labels are ignored."),
      projectName: z.string().optional().describe("Name of the project to add the issue to."),
    },
    tags: ["linear", "issues", "project-management", "write"],
  }),
  defineDemoTool({
    name: "linear_update_issue",
    summary: "Change a Linear issue's workflow state, assignee, priority, estimate, title or due date.",
    description:
      'Updates the given fields of an existing Linear issue; fields left out stay unchanged. State names are the team\'s workflow states, e.g. "In Progress", "In Review", "Done".',
    parameters: {
      issueId,
      state: z.string().optional().describe("Name of the workflow state to move the issue to."),
      assigneeEmail: z.email().nullable().optional().describe("Email of the new assignee; null to unassign."),
      priority: priority.optional(),
      estimate: z.number().min(0).optional().describe("Estimate in the team's points scale."),
      title: z.string().min(1).optional().describe("New title."),
      dueDate: z.iso.date().nullable().optional().describe("Due date as YYYY-MM-DD; null to clear."),
    },
    tags: ["linear", "issues", "project-management", "write"],
  }),
  defineDemoTool({
    name: "linear_search_issues",
    summary: "Search Linear issues by text, team, state, assignee, label or cycle, returning identifiers and status.",
    description:
      'Finds Linear issues matching free text and filters, ordered by last update. Returns identifier, title, state, priority, assignee and URL. Use "me" as assignee for the connected user\'s own issues.',
    parameters: {
      text: z.string().optional().describe("Words to match in title and description."),
      teamKey: z.string().optional().describe("Only issues of this team."),
      state: z.string().optional().describe("Only issues in this workflow state."),
      assignee: z.string().optional().describe('Email of the assignee, or "me".'),
      label: z.string().optional().describe("Only issues with this label."),
      currentCycleOnly: z.boolean().default(false).describe("Only issues in the team's active cycle."),
      limit: z.int().min(1).max(100).default(25).describe("Maximum number of issues."),
    },
    tags: ["linear", "issues", "search", "read-only"],
  }),
  defineDemoTool({
    name: "linear_add_comment",
    summary: "Add a markdown comment to a Linear issue, e.g. a status update or a question for the assignee.",
    description: "Posts a comment on a Linear issue as the connected user and returns the comment URL. Mentions use the member's display name with @.",
    parameters: {
      issueId,
      body: z.string().min(1).describe("Comment in markdown."),
    },
    tags: ["linear", "issues", "write"],
  }),
  defineDemoTool({
    name: "linear_list_teams",
    summary: "List Linear teams with their keys, workflow states and active cycle, to know where issues belong.",
    description:
      "Returns every team the connected user can access, with its key (the issue identifier prefix), name, workflow states in order and the dates of the active cycle. Call it before creating issues when the team key is unknown.",
    parameters: {},
    tags: ["linear", "project-management", "read-only"],
  }),
];
