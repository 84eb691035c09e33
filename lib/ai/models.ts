import "server-only";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { EmbeddingModelV4, LanguageModelV4 } from "@ai-sdk/provider";
import { ToolshedError } from "../errors";
import { createLlmSelector, DEFAULT_LLM_TIMEOUT_MS, DEFAULT_SHORTLIST } from "../selection/llm-selector";
import { DEFAULT_EMBEDDING_BATCH } from "../selection/embedding-index";
import { DEFAULT_EMBEDDING_TIMEOUT_MS, HYBRID_SELECTOR_ID } from "../selection/hybrid-selector";
import type { LocalIndexCache } from "../selection/local";
import { createLocalSelector } from "../selection/local-selector";
import type { Selector } from "../selection/selector";

/** The environment as plain strings (e.g. `process.env`), passed in so configuration stays testable. */
export type ModelEnv = Readonly<Record<string, string | undefined>>;

type RemoteProvider = "openai" | "anthropic" | "openai-compatible";
export type ModelSpec = { provider: "local" } | { provider: RemoteProvider; model: string };
export type RemoteModelSpec = Extract<ModelSpec, { model: string }>;

const AUX_MODEL_VARIABLE = "TOOLSHED_AUX_MODEL";
const MAIN_MODEL_VARIABLE = "TOOLSHED_MAIN_MODEL";
export const EMBEDDING_MODEL_VARIABLE = "TOOLSHED_EMBEDDING_MODEL";
const EMBEDDING_TIMEOUT_VARIABLE = "TOOLSHED_EMBEDDING_TIMEOUT_MS";
const EMBEDDING_BATCH_VARIABLE = "TOOLSHED_EMBEDDING_BATCH";

const REMOTE_PROVIDERS: readonly RemoteProvider[] = ["openai", "anthropic", "openai-compatible"];
const ACCEPTED_FORMS = "local, openai:<model>, anthropic:<model> or openai-compatible:<model>";

/** The variables each provider reads: its key (required unless noted) and its base URL. */
const PROVIDER_SETTINGS: Record<RemoteProvider, { keyVariable: string; keyRequired: boolean; baseUrlVariable: string }> = {
  openai: { keyVariable: "OPENAI_API_KEY", keyRequired: true, baseUrlVariable: "OPENAI_BASE_URL" },
  anthropic: { keyVariable: "ANTHROPIC_API_KEY", keyRequired: true, baseUrlVariable: "ANTHROPIC_BASE_URL" },
  "openai-compatible": {
    keyVariable: "TOOLSHED_OPENAI_COMPATIBLE_API_KEY",
    keyRequired: false,
    baseUrlVariable: "TOOLSHED_OPENAI_COMPATIBLE_BASE_URL",
  },
};

/** Parses `local` | `<provider>:<model>`; `variable` names the setting in the error. */
export function parseModelSpec(value: string, variable: string = AUX_MODEL_VARIABLE): ModelSpec {
  const trimmed = value.trim();
  if (trimmed === "local") return { provider: "local" };
  const separator = trimmed.indexOf(":");
  const provider = trimmed.slice(0, separator) as RemoteProvider;
  const model = trimmed.slice(separator + 1).trim();
  if (separator === -1 || !REMOTE_PROVIDERS.includes(provider) || model === "") {
    throw new ToolshedError("bad_request", `${variable}="${value}" is not a model. Use ${ACCEPTED_FORMS}.`, variable);
  }
  return { provider, model };
}

function formatModelSpec(spec: ModelSpec): string {
  return spec.provider === "local" ? "local" : `${spec.provider}:${spec.model}`;
}

function setting(env: ModelEnv, variable: string): string | undefined {
  const value = env[variable]?.trim();
  return value ? value : undefined;
}

export const STRUCTURED_OUTPUTS_VARIABLE = "TOOLSHED_OPENAI_COMPATIBLE_STRUCTURED_OUTPUTS";

const TRUE_WORDS = new Set(["1", "true", "yes", "on"]);
const FALSE_WORDS = new Set(["0", "false", "no", "off"]);

/** An on/off setting: 1/0, true/false, yes/no, on/off in any case; anything else is a configuration error. */
export function booleanSetting(env: ModelEnv, variable: string, fallback: boolean): boolean {
  const value = setting(env, variable)?.toLowerCase();
  if (value === undefined) return fallback;
  if (TRUE_WORDS.has(value)) return true;
  if (FALSE_WORDS.has(value)) return false;
  throw new ToolshedError("bad_request", `${variable}="${env[variable]}" must be 1 or 0 (true/false, yes/no, on/off).`, variable);
}

function isHttpUrl(value: string): boolean {
  return URL.canParse(value) && ["http:", "https:"].includes(new URL(value).protocol);
}

function requireBaseUrl(env: ModelEnv, variable: string, required: boolean): string | undefined {
  const value = setting(env, variable);
  if (value === undefined) {
    if (required) throw new ToolshedError("bad_request", `${variable} is required for openai-compatible models.`, variable);
    return undefined;
  }
  if (!isHttpUrl(value)) throw new ToolshedError("bad_request", `${variable} is not a URL (http:// or https://).`, variable);
  return value;
}

/** The key and base URL a provider is called with; fails now, not at the first request, when one is missing. */
function providerConnection(spec: RemoteModelSpec, env: ModelEnv): { apiKey: string | undefined; baseURL: string | undefined } {
  const { keyVariable, keyRequired, baseUrlVariable } = PROVIDER_SETTINGS[spec.provider];
  const apiKey = setting(env, keyVariable);
  if (keyRequired && apiKey === undefined) {
    throw new ToolshedError("bad_request", `${formatModelSpec(spec)} needs ${keyVariable}.`, keyVariable);
  }
  return { apiKey, baseURL: requireBaseUrl(env, baseUrlVariable, spec.provider === "openai-compatible") };
}

/** The AI SDK model for a spec. */
export function createLanguageModel(spec: RemoteModelSpec, env: ModelEnv): LanguageModelV4 {
  const { apiKey, baseURL } = providerConnection(spec, env);
  switch (spec.provider) {
    case "openai":
      // Chat Completions rather than the default Responses API: OPENAI_BASE_URL often points at
      // proxies and gateways that only implement Chat Completions.
      return createOpenAI({ apiKey, baseURL }).chat(spec.model);
    case "anthropic":
      return createAnthropic({ apiKey, baseURL })(spec.model);
    case "openai-compatible":
      return createOpenAICompatible({
        name: "openai-compatible",
        baseURL: baseURL!,
        apiKey,
        // Sends the schema as response_format json_schema; without it the provider sends only
        // json_object and the schema reaches the model through the prompt alone.
        supportsStructuredOutputs: booleanSetting(env, STRUCTURED_OUTPUTS_VARIABLE, true),
      })(spec.model);
  }
}

function positiveInteger(env: ModelEnv, variable: string, fallback: number): number {
  const value = setting(env, variable);
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) {
    throw new ToolshedError("bad_request", `${variable}="${value}" must be a positive whole number.`, variable);
  }
  return parsed;
}

/** The auxiliary selector: the local ranker, or a model with the local ranker as its fallback. */
export function auxSelectorFromEnv(env: ModelEnv, cache?: LocalIndexCache): Selector {
  const local = createLocalSelector(cache);
  const spec = parseModelSpec(setting(env, AUX_MODEL_VARIABLE) ?? "local", AUX_MODEL_VARIABLE);
  if (spec.provider === "local") return local;
  return createLlmSelector({
    id: formatModelSpec(spec),
    model: createLanguageModel(spec, env),
    fallback: local,
    timeoutMs: positiveInteger(env, "TOOLSHED_AUX_TIMEOUT_MS", DEFAULT_LLM_TIMEOUT_MS),
    shortlist: positiveInteger(env, "TOOLSHED_AUX_SHORTLIST", DEFAULT_SHORTLIST),
  });
}

export interface EmbeddingModelSetting {
  /** e.g. "openai:text-embedding-3-small": recorded with every stored vector. */
  id: string;
  model: EmbeddingModelV4;
  /** The per-request budget of the hybrid selector: the query's embedding, and waiting on a catalog's. */
  timeoutMs: number;
  /** Tools per embedding call when a catalog is embedded. */
  batchSize: number;
}

/** The hybrid selector's embedding model, or undefined when TOOLSHED_EMBEDDING_MODEL is not set. */
export function embeddingModelFromEnv(env: ModelEnv): EmbeddingModelSetting | undefined {
  const value = setting(env, EMBEDDING_MODEL_VARIABLE);
  if (value === undefined) return undefined;
  const spec = parseModelSpec(value, EMBEDDING_MODEL_VARIABLE);
  if (spec.provider !== "openai" && spec.provider !== "openai-compatible") {
    throw new ToolshedError(
      "bad_request",
      `${EMBEDDING_MODEL_VARIABLE}="${value}" is not an embedding model. Use openai:<model> or openai-compatible:<model>.`,
      EMBEDDING_MODEL_VARIABLE,
    );
  }
  const { apiKey, baseURL } = providerConnection(spec, env);
  const model =
    spec.provider === "openai"
      ? createOpenAI({ apiKey, baseURL }).embedding(spec.model)
      : createOpenAICompatible({ name: "openai-compatible", baseURL: baseURL!, apiKey }).embeddingModel(spec.model);
  return {
    id: formatModelSpec(spec),
    model,
    timeoutMs: positiveInteger(env, EMBEDDING_TIMEOUT_VARIABLE, DEFAULT_EMBEDDING_TIMEOUT_MS),
    batchSize: positiveInteger(env, EMBEDDING_BATCH_VARIABLE, DEFAULT_EMBEDDING_BATCH),
  };
}

/**
 * The selector used when a request names none: the auxiliary one, except that an embedding model
 * with no auxiliary model set makes it the hybrid selector.
 */
export function defaultSelectorId(env: ModelEnv): string {
  const aux = setting(env, AUX_MODEL_VARIABLE);
  if (aux === undefined) return setting(env, EMBEDDING_MODEL_VARIABLE) === undefined ? "local" : HYBRID_SELECTOR_ID;
  return formatModelSpec(parseModelSpec(aux, AUX_MODEL_VARIABLE));
}

export interface MainModel {
  spec: RemoteModelSpec;
  id: string;
  model: LanguageModelV4;
}

/** The playground's main model, or undefined when TOOLSHED_MAIN_MODEL is not set. */
export function mainModelFromEnv(env: ModelEnv): MainModel | undefined {
  const value = setting(env, MAIN_MODEL_VARIABLE);
  if (value === undefined) return undefined;
  const spec = parseModelSpec(value, MAIN_MODEL_VARIABLE);
  if (spec.provider === "local") {
    throw new ToolshedError(
      "bad_request",
      `${MAIN_MODEL_VARIABLE} cannot be local: the local selector ranks tools but does not chat. Use a provider model, or leave it unset.`,
      MAIN_MODEL_VARIABLE,
    );
  }
  return { spec, id: formatModelSpec(spec), model: createLanguageModel(spec, env) };
}

export interface ModelSlotDescription {
  variable: string;
  /** The configured value, or null when unset (main model only). */
  spec: string | null;
  provider: ModelSpec["provider"] | null;
  model: string | null;
  /** Origin and path only: credentials or query strings in the URL are never shown. Null = provider default. */
  baseUrl: string | null;
  /** The variable holding the key, when the provider takes one. */
  keyVariable: string | null;
  keySet: boolean;
  /** Why this setting cannot be used as it stands, if it cannot. */
  error: string | null;
}

export interface ModelConfigDescription {
  aux: ModelSlotDescription & { timeoutMs: number | null; shortlist: number | null };
  main: ModelSlotDescription;
  embedding: ModelSlotDescription & { timeoutMs: number | null; batchSize: number | null };
  /** The selector a request that names none gets, or null when the configuration is unusable. */
  defaultSelector: string | null;
}

/** Safe to show: never a key, nor a URL's user info or query (which may carry one). */
function displayUrl(value: string | undefined): string | null {
  if (value === undefined) return null;
  if (!isHttpUrl(value)) return "(not a URL)";
  const url = new URL(value);
  return `${url.origin}${url.pathname}`;
}

function orNull<T>(read: () => T): T | null {
  try {
    return read();
  } catch {
    return null;
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function describeSlot(env: ModelEnv, variable: string, value: string | undefined, check: () => unknown): ModelSlotDescription {
  const description: ModelSlotDescription = {
    variable,
    spec: value ?? null,
    provider: null,
    model: null,
    baseUrl: null,
    keyVariable: null,
    keySet: false,
    error: null,
  };
  if (value === undefined) return description;
  try {
    const spec = parseModelSpec(value, variable);
    description.provider = spec.provider;
    if (spec.provider !== "local") {
      const { keyVariable, baseUrlVariable } = PROVIDER_SETTINGS[spec.provider];
      description.model = spec.model;
      description.baseUrl = displayUrl(setting(env, baseUrlVariable));
      description.keyVariable = keyVariable;
      description.keySet = setting(env, keyVariable) !== undefined;
    }
    check();
  } catch (error) {
    description.error = errorMessage(error);
  }
  return description;
}

/** What the settings page shows about the configured models. */
export function describeModelConfig(env: ModelEnv): ModelConfigDescription {
  const auxValue = setting(env, AUX_MODEL_VARIABLE) ?? "local";
  const aux = describeSlot(env, AUX_MODEL_VARIABLE, auxValue, () => auxSelectorFromEnv(env));
  const remote = aux.provider !== null && aux.provider !== "local";
  // A bad value here is already reported in aux.error, by auxSelectorFromEnv.
  const timeoutMs = remote ? orNull(() => positiveInteger(env, "TOOLSHED_AUX_TIMEOUT_MS", DEFAULT_LLM_TIMEOUT_MS)) : null;
  const shortlist = remote ? orNull(() => positiveInteger(env, "TOOLSHED_AUX_SHORTLIST", DEFAULT_SHORTLIST)) : null;
  const main = describeSlot(env, MAIN_MODEL_VARIABLE, setting(env, MAIN_MODEL_VARIABLE), () => mainModelFromEnv(env));
  const embeddingSlot = describeSlot(env, EMBEDDING_MODEL_VARIABLE, setting(env, EMBEDDING_MODEL_VARIABLE), () => embeddingModelFromEnv(env));
  const embeddingModel = orNull(() => embeddingModelFromEnv(env));
  const embedding = { ...embeddingSlot, timeoutMs: embeddingModel?.timeoutMs ?? null, batchSize: embeddingModel?.batchSize ?? null };
  return { aux: { ...aux, timeoutMs, shortlist }, main, embedding, defaultSelector: orNull(() => defaultSelectorId(env)) };
}
