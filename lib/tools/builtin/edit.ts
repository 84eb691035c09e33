import { z } from "zod";
import { defineBuiltinTool } from "./types";

const DESCRIPTION = `Performs an exact string replacement in a file: finds oldString and replaces it with newString.

Before using this tool:
- Read the file with the read tool earlier in this session. Editing a file you have not read is refused, so you never overwrite changes you have not seen.
- Take oldString from the read output without the line-number prefix. Everything after the "<number>: " prefix is the actual line content, including its exact indentation (tabs or spaces). Never include any part of the prefix in oldString or newString.

How matching works:
- oldString must appear in the file exactly, character for character, including whitespace and line breaks. The edit fails if it is not found.
- The edit also fails if oldString occurs more than once, because it would be ambiguous which occurrence is meant. Either include more surrounding lines so the match is unique, or set replaceAll to change every occurrence.
- replaceAll is the right choice for renaming a variable or updating a repeated string throughout one file.
- newString must differ from oldString. An empty newString deletes the matched text.
- To create a new file, pass an empty oldString and the full contents as newString; this fails if the file already exists and is not empty.

Good practice:
- Keep oldString as small as possible while still unique: usually the lines you change plus one or two lines of context. Large oldStrings waste context and fail on the slightest difference.
- Preserve the file's style: indentation, quotes, naming, surrounding comments.
- To make several separate changes to one file, call the tool several times, one change each, top to bottom; each call sees the result of the previous one.
- Only add emojis or decorative comments if the user asked for them.
- After editing, the result may include diagnostics from the language server for the changed file: fix errors you introduced before moving on.`;

export const editTool = defineBuiltinTool({
  name: "edit",
  summary:
    "Replace an exact snippet of text in an existing file (optionally every occurrence); needed for targeted code or text changes to a file the agent has read.",
  description: DESCRIPTION,
  parameters: {
    filePath: z.string().describe("Absolute path of the file to modify."),
    oldString: z.string().describe("The exact text to replace, copied from the file without line-number prefixes."),
    newString: z.string().describe("The text to put in its place; must differ from oldString."),
    replaceAll: z.boolean().optional().describe("Replace every occurrence of oldString instead of requiring exactly one (default false)."),
  },
  tags: ["filesystem", "edit"],
});
