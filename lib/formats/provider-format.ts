import { derivedFromFrozen } from "../tools/frozen";
import type { InputSchema, ToolDefinition } from "../tools/types";

export const PROVIDER_FORMATS = ["ai-sdk", "openai", "anthropic"] as const;
export type ProviderFormat = (typeof PROVIDER_FORMATS)[number];

/** A Chat Completions function tool. `strict` is left out: it is optional, and strict mode
 * would reject ordinary schemas (optional properties, no `additionalProperties: false`). */
interface OpenAITool {
  type: "function";
  function: { name: string; description: string; parameters: InputSchema };
}

/** A Messages API client tool. */
interface AnthropicTool {
  name: string;
  description: string;
  input_schema: InputSchema;
}

/** The AI SDK's tool shape, with the name carried alongside since the SDK keys tools by name. */
interface AiSdkTool {
  name: string;
  description: string;
  inputSchema: InputSchema;
}

export interface ProviderTools {
  "ai-sdk": AiSdkTool;
  openai: OpenAITool;
  anthropic: AnthropicTool;
}

export function toProviderTool<F extends ProviderFormat>(tool: ToolDefinition, format: F): ProviderTools[F];
export function toProviderTool(tool: ToolDefinition, format: ProviderFormat): ProviderTools[ProviderFormat] {
  switch (format) {
    case "openai":
      return { type: "function", function: { name: tool.name, description: tool.description, parameters: tool.inputSchema } };
    case "anthropic":
      return { name: tool.name, description: tool.description, input_schema: tool.inputSchema };
    case "ai-sdk":
      return { name: tool.name, description: tool.description, inputSchema: tool.inputSchema };
  }
}

// A frozen definition (a cached catalog state's, see freezeCatalogState) is formatted once per
// format and shared by every list that hands it over.
const formatted: Record<ProviderFormat, WeakMap<ToolDefinition, ProviderTools[ProviderFormat]>> = {
  "ai-sdk": new WeakMap(),
  openai: new WeakMap(),
  anthropic: new WeakMap(),
};

/** The tool list exactly as the format's API receives it, in the given order. */
export function toProviderFormat<F extends ProviderFormat>(tools: readonly ToolDefinition[], format: F): ProviderTools[F][] {
  return tools.map((tool) => formattedTool(tool, format));
}

/** One tool as the format's API receives it: for a frozen definition, made once and shared. */
export function formattedTool<F extends ProviderFormat>(tool: ToolDefinition, format: F): ProviderTools[F] {
  return derivedFromFrozen(formatted[format], tool, (definition) => toProviderTool(definition, format)) as ProviderTools[F];
}
