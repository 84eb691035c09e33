import { z } from "zod";
import { defineBuiltinTool } from "./types";

const DESCRIPTION = `Writes a file to the local filesystem, creating it (and any missing parent directories) or replacing it entirely.

Usage:
- filePath must be an absolute path.
- The content replaces the whole file. There is no append mode: to change part of an existing file, use the edit tool, which sends only the changed text and is far less likely to lose something by accident.
- If the file already exists, you must have read it with the read tool earlier in this session, otherwise the write is refused. This protects changes made by the user or other tools since the agent last looked.
- Line endings and encoding are written exactly as given (UTF-8). Preserve the conventions of the project: indentation, trailing newline, quote style.

When to use:
- Creating a new file that the task actually requires.
- Rewriting a file almost completely, when an edit would be larger than the file itself.

When not to use:
- Do not create documentation files (README, *.md) or summaries of your work unless the user asked for them.
- Prefer editing existing files over creating new ones; new files should be the exception.
- Do not write secrets or credentials into files.`;

export const writeTool = defineBuiltinTool({
  name: "write",
  summary: "Create a new file or overwrite an existing one with complete contents; needed when the agent must create a file or rewrite one almost entirely.",
  description: DESCRIPTION,
  parameters: {
    filePath: z.string().describe("Absolute path of the file to write. Missing parent directories are created."),
    content: z.string().describe("The complete new contents of the file."),
  },
  tags: ["filesystem", "edit"],
});
