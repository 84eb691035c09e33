import type { z } from "zod";
import type { ToolDefinition, ToolRequirements } from "../types";
import { inputSchemaFromZod } from "../zod-schema";

/** A tool shipped with the product: its definition plus what the registry needs to schedule it. */
export interface BuiltinTool extends ToolDefinition {
  tags: string[];
  requires: ToolRequirements;
}

export interface BuiltinToolSpec<Name extends string> {
  name: Name;
  summary: string;
  description: string;
  /** The single source of the tool's input: the JSON Schema models see is derived from it. */
  parameters: z.ZodRawShape;
  tags: string[];
  requires?: ToolRequirements;
}

/** Keeps the literal name, so the list of built-in names is typed without being written twice. */
export function defineBuiltinTool<Name extends string>({ parameters, requires = {}, ...rest }: BuiltinToolSpec<Name>): BuiltinTool & { name: Name } {
  return { ...rest, inputSchema: inputSchemaFromZod(parameters), requires };
}
