import { z } from "zod";
import { safeName, safeText } from "../safe-text";
import { SUMMARY_MAX } from "../tools/types";
import { DESCRIPTION_MAX } from "../tools/validate";

/** The MCP tool annotations an override may set (MCP specification, `ToolAnnotations`). */
export interface ToolAnnotationsOverride {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export const ANNOTATION_KEYS = ["title", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const;
const ANNOTATION_TITLE_MAX = 200;

/**
 * A catalog's rewrite of one tool's definition, for every model or only for models matching
 * `models` (model-pattern semantics, see patterns.ts; empty = every model). It lives in the
 * catalog's rules, not on the tool, so a source that redefines the tool (an MCP server's re-sync)
 * changes what lies underneath and the override still applies on top.
 */
export interface DefinitionOverride {
  tool: string;
  models: string[];
  summary?: string;
  description?: string;
  /** A JSON Schema `default` per parameter (a top-level property of the input schema), by its name. */
  defaults?: Record<string, unknown>;
  /** MCP annotations served instead of the source's (each key on its own; the rest stay the source's). */
  annotations?: ToolAnnotationsOverride;
}

const ToolAnnotationsOverrideSchema = z
  .object({
    title: safeText().max(ANNOTATION_TITLE_MAX).optional(),
    readOnlyHint: z.boolean().optional(),
    destructiveHint: z.boolean().optional(),
    idempotentHint: z.boolean().optional(),
    openWorldHint: z.boolean().optional(),
  })
  .strict() satisfies z.ZodType<ToolAnnotationsOverride>;

export const DefinitionOverrideSchema = z.object({
  tool: safeName(),
  models: z.array(safeName()).max(100),
  summary: safeText().max(SUMMARY_MAX).optional(),
  description: safeText().max(DESCRIPTION_MAX).optional(),
  defaults: z.record(safeName().min(1).max(200), z.json()).optional(),
  annotations: ToolAnnotationsOverrideSchema.optional(),
}) satisfies z.ZodType<DefinitionOverride>;

/** Whether an override sets anything at all. */
export function overrideSetsSomething(override: DefinitionOverride): boolean {
  return (
    override.summary !== undefined ||
    override.description !== undefined ||
    Object.keys(override.defaults ?? {}).length > 0 ||
    Object.values(override.annotations ?? {}).some((value) => value !== undefined)
  );
}
