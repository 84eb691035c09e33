import type { ContentBlock, Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import type { ToolAnnotationsOverride } from "../rules/overrides";
import type { ToolDefinition, ToolMeta } from "../tools/types";
import { withoutHiddenContent } from "../tools/poisoning";
import { schemaViolation } from "../tools/validate";

// What the MCP gateway serves of a catalog's tools: their listing, and their answers checked against it.

/**
 * A tool as the MCP gateway lists it: its definition as this model and agent see it, with what its
 * source listed besides (an MCP server's title, output schema, annotations, `_meta` and its input
 * schema's `$schema`, pinned with the definition: lib/tools/pinning.ts), and the annotations a catalog
 * override sets over the source's (lib/pipeline/definition-overrides.ts). Nothing the registry holds of it is left out.
 */
export function mcpTool(definition: ToolDefinition & { annotations?: ToolAnnotationsOverride }, meta?: ToolMeta | null): McpTool {
  // A catalog override's annotations go over the source's, key by key; its title is the tool's display title too.
  const annotations = definition.annotations ? { ...meta?.annotations, ...definition.annotations } : meta?.annotations;
  // A server's title is text for the model too: nothing hidden in it (lib/tools/poisoning.ts).
  const listedTitle = definition.annotations?.title ?? meta?.title;
  const title = listedTitle === undefined ? undefined : withoutHiddenContent(listedTitle);
  return {
    name: definition.name,
    ...(title ? { title } : {}),
    description: definition.description,
    inputSchema: (meta?.inputSchemaDialect
      ? { $schema: meta.inputSchemaDialect, ...definition.inputSchema }
      : definition.inputSchema) as McpTool["inputSchema"],
    ...(meta?.outputSchema ? { outputSchema: meta.outputSchema as McpTool["outputSchema"] } : {}),
    ...(annotations ? { annotations } : {}),
    ...(meta?._meta ? { _meta: meta._meta } : {}),
  };
}

/** A tool's answer, as a live MCP call returns it. */
export interface ToolAnswer {
  content: ContentBlock[];
  isError: boolean;
  structuredContent?: Record<string, unknown>;
}

const errorAnswer = (text: string): ToolAnswer => ({ content: [{ type: "text", text }], isError: true });

/**
 * An MCP server's answer checked against the output schema the gateway listed for the tool, as the
 * MCP specification asks of clients: an answer that is not an error must carry structured content
 * that conforms. One that does not becomes an error result naming the tool and the first violation
 * with its path, which the model reads (the agent's client would reject the answer otherwise). An
 * error result whose structured content does not conform keeps its content, without that.
 */
export function checkOutputSchema(name: string, outputSchema: Record<string, unknown> | undefined, answer: ToolAnswer): ToolAnswer {
  if (outputSchema === undefined) return answer;
  if (answer.structuredContent === undefined) {
    return answer.isError ? answer : errorAnswer(`${name} declares an output schema, but its server answered without structured content.`);
  }
  const violation = schemaViolation(outputSchema, answer.structuredContent);
  if (violation === undefined) return answer;
  if (answer.isError) return { content: answer.content, isError: true };
  return errorAnswer(
    `${name} answered with structured content that does not match its output schema: at ${violation.path || "the root"}, ${violation.message}.`,
  );
}
