import { z } from "zod";
import { defineBuiltinTool } from "./types";

const DESCRIPTION = `Finds files by name with a glob pattern and returns their paths, most recently modified first.

Usage:
- pattern is a glob such as "**/*.ts", "src/components/**/*.tsx", "**/package.json" or "*.{yml,yaml}". "**" matches any number of directories; "*" matches within one path segment.
- path is the absolute directory to search from; by default the working directory. Leave it out rather than passing "undefined" or "null".
- Files ignored by .gitignore and hidden directories are skipped.
- At most 100 paths are returned. If the result says it was truncated, use a more specific pattern or a deeper path.
- Only files are listed, not directories.

When to use:
- You know (part of) a file's name or extension and need its path.
- You want an overview of which files of one kind exist in part of the project.

When not to use:
- To search inside files, use grep.
- For an open-ended search that needs several rounds of glob and grep, delegate it with the task tool.

Tip: several glob searches that might each be useful can be run as one batch of parallel tool calls.`;

export const globTool = defineBuiltinTool({
  name: "glob",
  summary: 'Find files whose paths match a glob pattern such as "**/*.ts"; needed to locate files by name or extension.',
  description: DESCRIPTION,
  parameters: {
    pattern: z.string().describe('Glob pattern to match file paths against, e.g. "**/*.test.ts".'),
    path: z.string().optional().describe("Absolute directory to search in. Defaults to the working directory."),
  },
  tags: ["filesystem", "search", "read-only"],
});
