import { DEFAULT_MODEL_RULES, type ModelRule } from "./model-rules";
import type { DefinitionOverride } from "./overrides";
import { DEFAULT_CATALOG_SETTINGS, DEFAULT_PROVIDERS, type ProviderProfile } from "./providers";

/** Everything besides tools and agents that drives one catalog's pipeline. */
export interface CatalogRules {
  modelRules: ModelRule[];
  providers: ProviderProfile[];
  overrides: DefinitionOverride[];
  searchServiceConfigured: boolean;
}

export const DEFAULT_RULES: CatalogRules = {
  modelRules: DEFAULT_MODEL_RULES,
  providers: DEFAULT_PROVIDERS,
  overrides: [],
  searchServiceConfigured: DEFAULT_CATALOG_SETTINGS.searchServiceConfigured,
};
