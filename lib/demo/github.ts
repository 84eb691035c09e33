import { z } from "zod";
import { defineDemoTool, type DemoTool } from "./types";

const owner = z.string().describe('Account or organization that owns the repository, e.g. "acme".');
const repo = z.string().describe('Repository name without the owner, e.g. "web-app".');
const issueNumber = z.int().min(1).describe("Issue number as shown after # on GitHub.");
const pullNumber = z.int().min(1).describe("Pull request number as shown after # on GitHub.");

export const GITHUB_TOOLS: DemoTool[] = [
  defineDemoTool({
    name: "github_create_issue",
    summary: "Open a new GitHub issue in a repository with title, markdown body, labels and assignees.",
    description:
      "Creates an issue in a GitHub repository and returns its number and URL. Use it to report a bug or track follow-up work the user asked to file; search existing issues first to avoid duplicates. Labels that do not exist in the repository are ignored.",
    parameters: {
      owner,
      repo,
      title: z.string().min(1).max(256).describe("Issue title: one line, specific."),
      body: z.string().optional().describe("Issue body in GitHub-flavored markdown."),
      labels: z.array(z.string()).optional().describe("Names of existing labels to apply."),
      assignees: z.array(z.string()).max(10).optional().describe("GitHub logins to assign."),
    },
    tags: ["github", "issues", "write"],
  }),
  defineDemoTool({
    name: "github_search_issues",
    summary: "Search GitHub issues and pull requests with GitHub search syntax (state, label, author, repo qualifiers).",
    description:
      'Runs a GitHub issue search and returns matching issues and pull requests with number, title, state, labels and URL. The query uses GitHub\'s search qualifiers, e.g. "repo:acme/web-app is:open label:bug login". At most 100 results per page.',
    parameters: {
      query: z.string().min(1).describe("GitHub search query including qualifiers such as repo:, is:open, label:, author:."),
      sort: z.enum(["created", "updated", "comments", "reactions"]).optional().describe("Sort field; best match when omitted."),
      order: z.enum(["asc", "desc"]).default("desc").describe("Sort direction."),
      perPage: z.int().min(1).max(100).default(30).describe("Results per page."),
      page: z.int().min(1).default(1).describe("1-based page number."),
    },
    tags: ["github", "issues", "search", "read-only"],
  }),
  defineDemoTool({
    name: "github_get_issue",
    summary: "Fetch one GitHub issue or pull request by number, with its body, labels, assignees and comment thread.",
    description:
      "Returns the full issue, including body, state, labels, assignees, milestone and the comments in chronological order. Use it when the user refers to a specific issue number or URL. Comments are limited to the latest 50 unless includeAllComments is set.",
    parameters: {
      owner,
      repo,
      issueNumber,
      includeAllComments: z.boolean().default(false).describe("Return every comment instead of the latest 50."),
    },
    tags: ["github", "issues", "read-only"],
  }),
  defineDemoTool({
    name: "github_comment_on_issue",
    summary: "Post a markdown comment on a GitHub issue or pull request conversation.",
    description:
      "Adds a comment to the conversation of an issue or pull request and returns the comment URL. For line-level review comments on code, use github_review_pull_request instead.",
    parameters: {
      owner,
      repo,
      issueNumber,
      body: z.string().min(1).describe("Comment text in GitHub-flavored markdown."),
    },
    tags: ["github", "issues", "write"],
  }),
  defineDemoTool({
    name: "github_create_pull_request",
    summary: "Open a GitHub pull request from a pushed branch into a base branch, optionally as a draft.",
    description:
      "Creates a pull request and returns its number and URL. The head branch must already be pushed to GitHub. Write the body as a summary of what changed and why, and how it was tested.",
    parameters: {
      owner,
      repo,
      title: z.string().min(1).max(256).describe("Pull request title."),
      head: z.string().describe('Branch containing the changes; "user:branch" for a branch in a fork.'),
      base: z.string().default("main").describe("Branch to merge into."),
      body: z.string().optional().describe("Description in markdown."),
      draft: z.boolean().default(false).describe("Open as a draft that cannot be merged yet."),
    },
    tags: ["github", "pull-requests", "write"],
  }),
  defineDemoTool({
    name: "github_get_pull_request_diff",
    summary: "Get the unified diff and changed-file list of a GitHub pull request, for code review.",
    description:
      "Returns the files changed by a pull request with additions and deletions, and the unified diff. Diffs longer than 3000 lines are truncated; pass path to review one file at a time.",
    parameters: {
      owner,
      repo,
      pullNumber,
      path: z.string().optional().describe("Only return the diff of this file path."),
    },
    tags: ["github", "pull-requests", "read-only"],
  }),
  defineDemoTool({
    name: "github_review_pull_request",
    summary: "Submit a pull request review on GitHub: approve, request changes or comment, with optional line comments.",
    description:
      "Submits a review on a pull request. Line comments refer to lines of the new version of a file in the pull request's diff. Requesting changes blocks merging under most branch protection rules, so use it only for real problems.",
    parameters: {
      owner,
      repo,
      pullNumber,
      event: z.enum(["APPROVE", "REQUEST_CHANGES", "COMMENT"]).describe("The verdict of the review."),
      body: z.string().optional().describe("Overall review comment in markdown; required for REQUEST_CHANGES."),
      comments: z
        .array(
          z.object({
            path: z.string().describe("File path relative to the repository root."),
            line: z.int().min(1).describe("Line number in the new version of the file."),
            body: z.string().min(1).describe("Comment text in markdown."),
          }),
        )
        .optional()
        .describe("Comments attached to specific lines."),
    },
    tags: ["github", "pull-requests", "review", "write"],
  }),
  defineDemoTool({
    name: "github_merge_pull_request",
    summary: "Merge an open GitHub pull request using merge commit, squash or rebase.",
    description:
      "Merges a pull request once its checks and reviews allow it, and returns the resulting commit SHA. Fails with the reason when the pull request is not mergeable (conflicts, failing required checks, missing approvals). Only merge when the user asked for it.",
    parameters: {
      owner,
      repo,
      pullNumber,
      method: z.enum(["merge", "squash", "rebase"]).default("squash").describe("How to combine the commits."),
      commitTitle: z.string().optional().describe("Title of the merge or squash commit; defaults to the pull request title."),
    },
    tags: ["github", "pull-requests", "write"],
  }),
  defineDemoTool({
    name: "github_get_file_contents",
    summary: "Read a file or list a directory from a GitHub repository at any branch, tag or commit without cloning it.",
    description:
      "Returns the text of a file, or the entries of a directory, from a repository on GitHub. Use it to look at code in repositories that are not checked out locally. Files larger than 1 MB are refused.",
    parameters: {
      owner,
      repo,
      path: z.string().default("").describe("Path inside the repository; empty for the root directory."),
      ref: z.string().optional().describe("Branch, tag or commit SHA; the default branch when omitted."),
    },
    tags: ["github", "code", "read-only"],
  }),
  defineDemoTool({
    name: "github_list_workflow_runs",
    summary: "List recent GitHub Actions workflow runs with status and conclusion, filtered by branch, workflow or event.",
    description:
      "Returns recent GitHub Actions runs of a repository, newest first, with workflow name, branch, commit, status, conclusion and URL. Use it to find out whether CI passed for a branch or why a deploy did not happen.",
    parameters: {
      owner,
      repo,
      branch: z.string().optional().describe("Only runs for this branch."),
      workflow: z.string().optional().describe('Workflow file name (e.g. "ci.yml") or workflow ID.'),
      status: z
        .enum(["queued", "in_progress", "completed", "success", "failure", "cancelled"])
        .optional()
        .describe("Only runs with this status or conclusion."),
      limit: z.int().min(1).max(100).default(20).describe("Maximum number of runs."),
    },
    tags: ["github", "ci", "read-only"],
  }),
];
