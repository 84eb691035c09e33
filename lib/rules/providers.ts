import { z } from "zod";
import { safeName } from "../safe-text";

/** What the pipeline needs to know about a model provider. */
export interface ProviderProfile {
  id: string;
  name: string;
  /** The provider offers web search natively, so `websearch` can be served without a service. */
  webSearch: boolean;
}

export const ProviderProfileSchema = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9._-]{0,63}$/),
  name: safeName().min(1).max(120),
  webSearch: z.boolean(),
}) satisfies z.ZodType<ProviderProfile>;

export const DEFAULT_PROVIDERS: ProviderProfile[] = [
  { id: "openai", name: "OpenAI", webSearch: true },
  { id: "anthropic", name: "Anthropic", webSearch: true },
  { id: "google", name: "Google", webSearch: true },
  { id: "openrouter", name: "OpenRouter", webSearch: false },
  { id: "openai-compatible", name: "OpenAI-compatible server", webSearch: false },
];

/** Catalog-wide settings the pipeline reads besides the rules. */
export interface CatalogSettings {
  /** A search service (e.g. a search API key) backs `websearch` for every provider. */
  searchServiceConfigured: boolean;
}

export const DEFAULT_CATALOG_SETTINGS: CatalogSettings = { searchServiceConfigured: false };

export interface KnownModel {
  id: string;
  provider: string;
}

/** Open-weight models are usually served through an OpenAI-compatible endpoint. */
export const KNOWN_MODELS: KnownModel[] = [
  ...["gpt-5", "gpt-5-mini", "gpt-5-nano", "gpt-5-codex", "gpt-4.1", "gpt-4.1-mini", "gpt-4o", "o3", "o4-mini", "gpt-oss-120b", "gpt-oss-20b"].map((id) => ({
    id,
    provider: "openai",
  })),
  ...["claude-opus-4-1", "claude-sonnet-4-5", "claude-haiku-4-5", "claude-3-7-sonnet"].map((id) => ({ id, provider: "anthropic" })),
  ...["gemini-2.5-pro", "gemini-2.5-flash"].map((id) => ({ id, provider: "google" })),
  ...["llama-3.3-70b", "qwen3-coder", "deepseek-v3", "kimi-k2", "mistral-large"].map((id) => ({ id, provider: "openai-compatible" })),
];

const knownProviders = new Map(KNOWN_MODELS.map((model) => [model.id, model.provider]));

const PROVIDER_PREFIXES: [RegExp, string][] = [
  [/^(gpt-|o[134](-|$)|chatgpt-)/, "openai"],
  [/^claude-/, "anthropic"],
  [/^gemini-/, "google"],
];

/** The provider of a known model id, or the one its prefix implies; undefined when unknown. */
export function providerForModel(modelId: string): string | undefined {
  const id = modelId.toLowerCase();
  const known = knownProviders.get(id);
  if (known) return known;
  return PROVIDER_PREFIXES.find(([prefix]) => prefix.test(id))?.[1];
}
