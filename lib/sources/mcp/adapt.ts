import "server-only";
import { nameProblem, showUnsafe } from "../../safe-text";
import type { InputSchema, ToolDefinition } from "../../tools/types";
import { summarize, validateOutputSchema, validateToolDraft, type FieldError } from "../../tools/validate";
import { registryNamesForServer } from "./names";

/** An MCP tool in the unified format, with what is needed to call it on its server. */
export interface McpToolDraft extends ToolDefinition {
  source: "mcp";
  tags: string[];
  server: string;
  /** The name the server knows the tool by: what `tools/call` needs. */
  mcpName: string;
  title?: string;
  /** The server's hints (readOnlyHint, destructiveHint, ...), as given: informative, not trusted. */
  annotations?: Record<string, unknown>;
  /** The JSON Schema of the tool's structured results, as given (its `$schema` kept: results are checked in its dialect). */
  outputSchema?: Record<string, unknown>;
  /** The server's `_meta` for the tool, as given. */
  _meta?: Record<string, unknown>;
  /** The input schema's `$schema`, kept apart: the unified format has no dialect key. */
  inputSchemaDialect?: string;
}

/** A tool the server lists that cannot enter the registry; the server's other tools still do. */
export interface McpToolProblem {
  /** The tool's name on the server, or its position in the list when it has none. */
  mcpName: string;
  message: string;
  errors?: FieldError[];
}

const MCP_NAME_MAX = 1_000;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

const nonEmptyText = (value: unknown): string | undefined => (typeof value === "string" && value.trim().length > 0 ? value.trim() : undefined);

/** A check of one schema, except that a schema the validator chokes on is one tool's problem, not the server's. */
function schemaCheck(field: string, check: () => FieldError[]): FieldError[] {
  try {
    return check();
  } catch (error) {
    return [{ field, message: `Not a usable JSON Schema: ${error instanceof Error ? error.message : String(error)}` }];
  }
}

/** Everything wrong with a draft, its output schema (absent or null: none) included. */
function checkDraft(draft: McpToolDraft, listedOutputSchema: unknown): FieldError[] {
  return [
    ...schemaCheck("inputSchema", () => validateToolDraft(draft)),
    ...(listedOutputSchema == null ? [] : schemaCheck("outputSchema", () => validateOutputSchema(listedOutputSchema))),
  ];
}

/**
 * Adapts one server's `tools/list` result. Each tool is checked on its own, so one tool with
 * a broken or oversized schema is reported without keeping the rest out of the registry.
 */
export function adaptMcpTools(server: string, listed: readonly unknown[]): { tools: McpToolDraft[]; problems: McpToolProblem[] } {
  const problems: McpToolProblem[] = [];
  const usable = new Map<string, Record<string, unknown>>();
  listed.forEach((tool, position) => {
    const mcpName = isRecord(tool) && typeof tool.name === "string" ? tool.name : undefined;
    if (!isRecord(tool) || mcpName === undefined || mcpName.length === 0) {
      problems.push({ mcpName: `#${position + 1}`, message: "The server listed a tool without a name." });
    } else if (mcpName.length > MCP_NAME_MAX) {
      problems.push({ mcpName: showUnsafe(mcpName.slice(0, 80)), message: `The tool name is ${mcpName.length} characters long.` });
    } else if (nameProblem(mcpName) !== undefined) {
      problems.push({ mcpName: showUnsafe(mcpName), message: `The tool name: ${nameProblem(mcpName)}` });
    } else if (usable.has(mcpName)) {
      problems.push({ mcpName, message: "The server lists this tool name more than once; only the first is used." });
    } else {
      usable.set(mcpName, tool);
    }
  });

  const mcpNames = [...usable.keys()];
  const names = registryNamesForServer(server, mcpNames);
  const tools: McpToolDraft[] = [];
  mcpNames.forEach((mcpName, index) => {
    const tool = usable.get(mcpName) as Record<string, unknown>;
    const description = typeof tool.description === "string" ? tool.description.trim() : "";
    const title = nonEmptyText(tool.title) ?? (isRecord(tool.annotations) ? nonEmptyText(tool.annotations.title) : undefined);
    // Servers built on the SDK declare draft-07 in `$schema`; the unified format has no dialect key, so it is kept beside.
    const { $schema: dialect, ...inputSchema } = isRecord(tool.inputSchema) ? tool.inputSchema : { $schema: undefined };
    const draft: McpToolDraft = {
      name: names[index],
      source: "mcp",
      summary: summarize(description || title || `${mcpName} (a tool of the MCP server ${server})`),
      description,
      inputSchema: (isRecord(tool.inputSchema) ? inputSchema : tool.inputSchema) as InputSchema,
      tags: [server],
      server,
      mcpName,
      ...(title ? { title } : {}),
      ...(isRecord(tool.annotations) ? { annotations: tool.annotations } : {}),
      ...(isRecord(tool.outputSchema) ? { outputSchema: tool.outputSchema } : {}),
      ...(isRecord(tool._meta) ? { _meta: tool._meta } : {}),
      ...(typeof dialect === "string" ? { inputSchemaDialect: dialect } : {}),
    };
    const errors = checkDraft(draft, tool.outputSchema);
    if (errors.length > 0) {
      problems.push({ mcpName, message: `${errors[0].message} (${errors[0].field})`, errors });
    } else {
      tools.push(draft);
    }
  });
  return { tools, problems };
}
