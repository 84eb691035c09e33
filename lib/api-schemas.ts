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

const toolFields = {
  name: z.unknown(),
  summary: z.unknown(),
  description: z.unknown(),
  inputSchema: z.unknown(),
  tags: z.unknown(),
  enabled: z.unknown(),
};

/** Tool bodies only fix which keys exist; lib/tools/validate checks the values, field by field. */
export const createToolBody = z.strictObject(toolFields);
export const patchToolBody = z.strictObject(toolFields).partial();
