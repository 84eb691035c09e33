import { z } from "zod";
import { defineBuiltinTool } from "./types";

const DESCRIPTION = `Searches the contents of files for a regular expression, using ripgrep, and returns the matching lines grouped by file.

Usage:
- pattern is a regular expression in ripgrep (Rust regex) syntax, e.g. "log.*Error", "function\\s+\\w+", "import .* from 'react'". Literal braces, parentheses and dots must be escaped: to find "interface Foo {" search for "interface Foo \\{".
- Matching is case-sensitive; use "(?i)" at the start of the pattern for a case-insensitive search.
- A pattern matches within one line. Patterns that would need to span several lines do not match; search for a distinctive single line instead.
- path is the directory (or single file) to search, absolute; by default the working directory.
- include restricts the search to files whose names match a glob, e.g. "*.ts", "*.{ts,tsx}", "src/**/*.py".
- Files ignored by .gitignore, hidden directories and binary files are skipped.

Results:
- Each match is reported as file path, line number and the line itself. Files are ordered by modification time, most recent first, so recently touched code comes up first.
- At most 100 matches are returned. If the result says it was truncated, narrow the pattern or the path, or add an include filter, rather than paging through everything.
- Very long matching lines are shortened.

When to use:
- Finding where a symbol, string, error message or configuration key is used or defined.
- Finding which files mention something before deciding what to read.

When not to use:
- To find files by name, use glob.
- To count matches or run a pipeline of text tools, use bash with rg directly.
- For an open-ended investigation that needs many rounds of searching and reading, delegate it with the task tool so the search does not flood this conversation.
- Never run grep or rg through the bash tool for an ordinary search: this tool is faster to read, respects ignore files and keeps output bounded.`;

export const grepTool = defineBuiltinTool({
  name: "grep",
  summary: "Search file contents by regular expression across the codebase and list matching lines; needed to find where code, text or a symbol appears.",
  description: DESCRIPTION,
  parameters: {
    pattern: z.string().describe("Regular expression to search for (ripgrep syntax)."),
    path: z.string().optional().describe("Absolute directory or file to search. Defaults to the working directory."),
    include: z.string().optional().describe('Glob of file names to search, e.g. "*.ts" or "*.{ts,tsx}".'),
  },
  tags: ["filesystem", "search", "read-only"],
});
