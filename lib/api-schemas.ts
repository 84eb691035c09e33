import { z } from "zod";

/** Request bodies of the HTTP API and the server actions, validated once at the edge. */
export const createCatalogBody = z.strictObject({
  name: z.string(),
  description: z.string().optional(),
  id: z.string().optional(),
});

export const updateCatalogBody = z.strictObject({
  name: z.string().optional(),
  description: z.string().optional(),
});

/** Tool bodies only fix which keys may exist; lib/tools/validate checks the values, field by field. */
export const toolBody = z.strictObject({
  name: z.unknown().optional(),
  summary: z.unknown().optional(),
  description: z.unknown().optional(),
  inputSchema: z.unknown().optional(),
  tags: z.unknown().optional(),
  enabled: z.unknown().optional(),
});
