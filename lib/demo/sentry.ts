import { z } from "zod";
import { defineDemoTool, type DemoTool } from "./types";

const issueId = z.string().describe('Sentry issue ID or short ID, e.g. "WEB-APP-3F2".');

export const SENTRY_TOOLS: DemoTool[] = [
  defineDemoTool({
    name: "sentry_list_issues",
    summary: "List unresolved Sentry error issues of a project, by frequency or recency, with event and user counts.",
    description:
      'Returns error groups of a Sentry project with short ID, title, culprit, level, first and last seen, number of events and affected users. Use the query to filter, e.g. "is:unresolved release:1.4.2" or "level:fatal".',
    parameters: {
      project: z.string().describe('Project slug, e.g. "web-app".'),
      environment: z.string().optional().describe('Only events from this environment, e.g. "production".'),
      query: z.string().default("is:unresolved").describe("Sentry search query."),
      sort: z.enum(["freq", "date", "new", "user"]).default("freq").describe("Order: event count, last seen, first seen or users affected."),
      period: z.enum(["1h", "24h", "7d", "14d", "30d"]).default("24h").describe("Time window for counts."),
      limit: z.int().min(1).max(100).default(25).describe("Maximum number of issues."),
    },
    tags: ["sentry", "errors", "monitoring", "read-only"],
  }),
  defineDemoTool({
    name: "sentry_get_issue",
    summary: "Get a Sentry issue's latest event with full stack trace, breadcrumbs, tags and release, to debug an error.",
    description:
      "Returns the issue's details and its most recent event: exception type and message, stack trace with source context for in-app frames, breadcrumbs leading up to the error, tags (browser, OS, release) and request data. Use it to find the failing code before fixing a production error.",
    parameters: {
      issueId,
      includeBreadcrumbs: z.boolean().default(true).describe("Include the breadcrumbs of the latest event."),
    },
    tags: ["sentry", "errors", "debugging", "read-only"],
  }),
  defineDemoTool({
    name: "sentry_update_issue",
    summary: "Resolve, ignore, reopen or assign a Sentry issue, optionally resolving it in the next release.",
    description:
      "Changes the status or assignee of an issue. Resolving in the next release reopens the issue automatically if it occurs again in a later version. Ignoring can be limited to a duration.",
    parameters: {
      issueId,
      status: z.enum(["resolved", "resolvedInNextRelease", "ignored", "unresolved"]).optional().describe("New status."),
      ignoreMinutes: z.int().min(1).optional().describe("With status ignored: stop ignoring after this many minutes."),
      assignee: z.string().optional().describe('Email of a member or "team:<slug>" to assign.'),
    },
    tags: ["sentry", "errors", "write"],
  }),
];
