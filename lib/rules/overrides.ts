import { z } from "zod";
import { SUMMARY_MAX } from "../tools/types";
import { DESCRIPTION_MAX } from "../tools/validate";

/**
 * A catalog's rewrite of one tool's definition, for every model or only for models matching
 * `models` (model-pattern semantics, see patterns.ts; empty = every model).
 */
export interface DefinitionOverride {
  tool: string;
  models: string[];
  summary?: string;
  description?: string;
}

export const DefinitionOverrideSchema = z.object({
  tool: z.string(),
  models: z.array(z.string()).max(100),
  summary: z.string().max(SUMMARY_MAX).optional(),
  description: z.string().max(DESCRIPTION_MAX).optional(),
}) satisfies z.ZodType<DefinitionOverride>;
