import { z } from "zod";
import { defineBuiltinTool } from "./types";

const DESCRIPTION = `Reads a file from the local filesystem and returns its contents with line numbers.

Usage:
- filePath must be an absolute path. Relative paths are resolved against the working directory, but absolute paths avoid ambiguity when the agent has changed directories.
- By default the first 2000 lines are returned. For long files, pass offset (the 0-based line to start from) and limit (how many lines) to read the part you need, and read further pages only if you have to.
- Every line is returned as "<line number>: <content>" with numbering starting at 1. The numbers are not part of the file: never copy them into an edit.
- Lines longer than 2000 characters are cut off and marked as truncated.
- Images (PNG, JPEG, GIF, WebP) and PDFs are returned as attachments the model can look at when it supports them. Other binary files are refused rather than dumped as bytes.
- Reading a directory fails; use glob or bash with ls to list directory contents.
- Reading a file that does not exist fails with suggestions of similarly named files, when there are any.

When to use:
- Before editing a file: the editing tools refuse to change an existing file that has not been read in this session, so that changes are based on its current contents.
- To inspect a file whose path you already know. To find files by name use glob; to find code by content use grep.

Tips:
- It is usually better to read several likely relevant files in one batch of parallel tool calls than one at a time.
- If a file is empty, the result says so explicitly instead of returning nothing.`;

export const readTool = defineBuiltinTool({
  name: "read",
  summary:
    "Read a file's contents with line numbers (text, images, PDFs); needed whenever the agent must look at a specific file, including before editing it.",
  description: DESCRIPTION,
  parameters: {
    filePath: z.string().describe("Absolute path of the file to read."),
    offset: z.int().min(0).optional().describe("0-based line number to start reading from. Omit to start at the beginning."),
    limit: z.int().min(1).optional().describe("Maximum number of lines to return (default 2000)."),
  },
  tags: ["filesystem", "read-only"],
});
