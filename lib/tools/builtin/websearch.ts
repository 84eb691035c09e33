import { z } from "zod";
import { defineBuiltinTool } from "./types";

const DESCRIPTION = `Searches the web and returns a ranked list of results, each with title, URL and a content snippet.

When to use:
- Information that may be newer than your training data: recent releases, current API versions, breaking changes, security advisories, error messages you do not recognize.
- Finding the right documentation page before reading it in full with webfetch.

Usage:
- Write the query as a search engine expects it: specific keywords, library names and versions, the exact error text in quotes. Include the current year when recency matters.
- numResults sets how many results to return (default 8, at most 20).
- allowedDomains limits results to the given sites (e.g. ["docs.python.org"]); blockedDomains excludes sites. Use one or the other, not both.
- Snippets can be partial or out of date: fetch the page before relying on details.

After answering from search results, list the URLs you used as sources so the user can check them.`;

export const websearchTool = defineBuiltinTool({
  name: "websearch",
  summary:
    "Search the web for current information and get ranked results with URLs and snippets; needed for recent releases, docs or errors beyond the model's knowledge.",
  description: DESCRIPTION,
  parameters: {
    query: z.string().min(2).describe("The search query."),
    numResults: z.int().min(1).max(20).optional().describe("How many results to return (default 8)."),
    allowedDomains: z.array(z.string()).optional().describe("Only return results from these domains."),
    blockedDomains: z.array(z.string()).optional().describe("Never return results from these domains."),
  },
  tags: ["web", "search", "read-only"],
  requires: { capability: "web_search" },
});
