import type { z } from "zod";
import type { ToolDefinition } from "../tools/types";
import { inputSchemaFromZod } from "../tools/zod-schema";

/** A custom tool of the demo catalog, as a team would have defined it in the browser. */
export interface DemoTool extends ToolDefinition {
  tags: string[];
}

export interface DemoToolSpec {
  name: string;
  summary: string;
  description: string;
  parameters: z.ZodRawShape;
  tags: string[];
}

export function defineDemoTool({ parameters, ...rest }: DemoToolSpec): DemoTool {
  return { ...rest, inputSchema: inputSchemaFromZod(parameters) };
}
