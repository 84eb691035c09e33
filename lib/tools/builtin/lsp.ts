import { z } from "zod";
import { defineBuiltinTool } from "./types";

const LSP_OPERATIONS = [
  "goToDefinition",
  "findReferences",
  "hover",
  "documentSymbol",
  "workspaceSymbol",
  "goToImplementation",
  "incomingCalls",
  "outgoingCalls",
  "diagnostics",
] as const;

const DESCRIPTION = `Queries the language server for the file's language to get precise, compiler-grade code intelligence.

Operations:
- goToDefinition: where the symbol at the position is defined.
- findReferences: every place the symbol at the position is used, across the workspace.
- hover: the type signature and documentation of the symbol at the position.
- documentSymbol: the outline of the file (classes, functions, variables) with their ranges.
- workspaceSymbol: symbols anywhere in the workspace whose name matches query.
- goToImplementation: the implementations of an interface or abstract method.
- incomingCalls / outgoingCalls: the functions that call, or are called by, the function at the position.
- diagnostics: the errors and warnings the language server currently reports for the file.

Usage:
- filePath must be absolute. line and character are 1-based, as shown by the read tool; character counts from the first column of the line. Point at any character inside the symbol's name.
- documentSymbol and diagnostics ignore line and character; workspaceSymbol needs query and ignores the position.
- A language server must be configured for the file's extension; the first request for a language may take a few seconds while the server starts and indexes the project.

When to use:
- Prefer it over grep when names are ambiguous (overloads, methods with common names, re-exports), when you need a type, or to find every caller before changing a function's signature.
- Check diagnostics after a series of edits to catch type errors without running a full build.

When not to use:
- For plain text, comments, configuration files or languages without a configured server, use grep.`;

export const lspTool = defineBuiltinTool({
  name: "lsp",
  summary:
    "Ask the language server for definitions, references, types, symbols, call hierarchy or diagnostics at a code position; needed for precise, type-aware code navigation.",
  description: DESCRIPTION,
  parameters: {
    operation: z.enum(LSP_OPERATIONS).describe("The language server request to make."),
    filePath: z.string().describe("Absolute path of the file the request is about."),
    line: z.int().min(1).optional().describe("1-based line of the symbol, for position-based operations."),
    character: z.int().min(1).optional().describe("1-based column of the symbol, for position-based operations."),
    query: z.string().optional().describe("Symbol name to search for, for workspaceSymbol."),
  },
  tags: ["code-intelligence", "read-only"],
  requires: { flag: "experimental.lsp" },
});
