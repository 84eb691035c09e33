import { z } from "zod";
import { safeName, safeText } from "../safe-text";
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
  tool: safeName(),
  models: z.array(safeName()).max(100),
  summary: safeText().max(SUMMARY_MAX).optional(),
  description: safeText().max(DESCRIPTION_MAX).optional(),
}) satisfies z.ZodType<DefinitionOverride>;
