import { z } from "zod";
import { defineBuiltinTool } from "./types";

const DESCRIPTION = `Applies a patch that adds, updates, moves or deletes one or more files in a single operation. This is the way to change files: use it instead of rewriting files through the shell.

The patch is plain text in a file-oriented format (not a unified diff). It is wrapped in an envelope:

*** Begin Patch
[one or more file sections]
*** End Patch

Each file section starts with one of three headers:
- "*** Add File: <path>" creates a new file. Every following line of content starts with "+".
- "*** Delete File: <path>" removes an existing file. Nothing follows.
- "*** Update File: <path>" changes an existing file. It may be followed directly by "*** Move to: <new path>" to rename the file as well.

An update consists of one or more hunks. A hunk starts with "@@", optionally followed by a line that locates it, such as the enclosing class or function ("@@ class Parser" or "@@ def handle_request():"). Inside a hunk, every line starts with one character:
- " " (a space) for a context line that stays unchanged,
- "-" for a line to remove,
- "+" for a line to add.

Context rules:
- Show about three lines of unchanged context above and below each change, so the location is unambiguous. Do not repeat context lines that already belong to the previous change.
- If three lines are not enough to identify the place (the same code appears several times), add an "@@" line naming the class or function; several "@@" lines can be stacked to narrow it down.
- Context and removed lines must match the current file exactly, apart from trailing whitespace. Read the file first if you are not sure of its contents: a patch that does not match is rejected as a whole and nothing is changed.

Example:

*** Begin Patch
*** Add File: docs/usage.md
+# Usage
+Run the tool with --help.
*** Update File: src/config.py
@@ def load_config(path):
     with open(path) as handle:
-        return json.load(handle)
+        data = json.load(handle)
+    return validate(data)
*** Delete File: src/legacy_config.py
*** End Patch

Rules:
- File paths are relative to the working directory; never absolute.
- One patch may touch many files; keep related changes together in one call so they are applied atomically.
- Keep the project's style: indentation, quotes, line endings.
- After applying, the result lists the files changed and any diagnostics reported for them; fix errors you introduced.`;

export const applyPatchTool = defineBuiltinTool({
  name: "apply_patch",
  summary: "Apply a multi-file patch that adds, updates, renames or deletes files in one atomic operation; needed whenever files must be created or changed.",
  description: DESCRIPTION,
  parameters: {
    patchText: z.string().describe('The full patch text, from "*** Begin Patch" to "*** End Patch".'),
  },
  tags: ["filesystem", "edit"],
});
