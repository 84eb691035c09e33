import { z } from "zod";
import { PROVIDER_FORMATS } from "./formats/provider-format";
import { AgentSchema } from "./rules/agents";
import { ModelRuleSchema } from "./rules/model-rules";
import { DefinitionOverrideSchema } from "./rules/overrides";
import { ProviderProfileSchema } from "./rules/providers";

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

export const toolListBody = z.strictObject({
  model: z.string().trim().min(1, "Name a model id, e.g. gpt-5.").max(200),
  agent: z.string().trim().min(1, "Name an agent, e.g. build.").max(64),
  provider: z.string().trim().min(1).max(64).optional(),
  mode: z.string().trim().min(1).max(64).optional(),
  flags: z.array(z.string().trim().min(1).max(100)).max(50).optional(),
  format: z.enum(PROVIDER_FORMATS).optional(),
});

export const rulesBody = z.strictObject({
  modelRules: z.array(ModelRuleSchema).max(200).optional(),
  providers: z.array(ProviderProfileSchema).max(100).optional(),
  overrides: z.array(DefinitionOverrideSchema).max(1000).optional(),
  searchServiceConfigured: z.boolean().optional(),
});

export const agentBody = AgentSchema.strict();
