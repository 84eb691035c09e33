/**
 * What the providers document about how much a request may carry: each known model's context
 * window, in tokens, and a provider's limit on the number of tools in one request.
 */

/**
 * Context windows of the models in KNOWN_MODELS, from the providers' model pages:
 * OpenAI platform.openai.com/docs/models (gpt-5 family 400,000; gpt-4.1 family 1,047,576; gpt-4o
 * 128,000; o3 and o4-mini 200,000; gpt-oss 131,072), Anthropic docs.anthropic.com/en/docs/about-claude/models
 * (200,000; Sonnet 4.5's 1M window is a beta it must be asked for), Google ai.google.dev/gemini-api/docs/models
 * (1,048,576 input tokens), and the open-weight models' cards on huggingface.co (Llama 3.3 128K,
 * Qwen3-Coder 256K native, DeepSeek-V3 128K, Kimi K2 128K, Mistral Large 2 128K).
 */
const CONTEXT_WINDOWS: Record<string, number> = {
  "gpt-5": 400_000,
  "gpt-5-mini": 400_000,
  "gpt-5-nano": 400_000,
  "gpt-5-codex": 400_000,
  "gpt-4.1": 1_047_576,
  "gpt-4.1-mini": 1_047_576,
  "gpt-4o": 128_000,
  o3: 200_000,
  "o4-mini": 200_000,
  "gpt-oss-120b": 131_072,
  "gpt-oss-20b": 131_072,
  "claude-opus-4-1": 200_000,
  "claude-sonnet-4-5": 200_000,
  "claude-haiku-4-5": 200_000,
  "claude-3-7-sonnet": 200_000,
  "gemini-2.5-pro": 1_048_576,
  "gemini-2.5-flash": 1_048_576,
  "llama-3.3-70b": 128_000,
  "qwen3-coder": 262_144,
  "deepseek-v3": 128_000,
  "kimi-k2": 128_000,
  "mistral-large": 128_000,
};

/** A known model's context window; a provider prefix ("openai/gpt-4o") and case are ignored. Undefined when unknown. */
export function contextWindowOf(modelId: string): number | undefined {
  const id = modelId.toLowerCase();
  return CONTEXT_WINDOWS[id] ?? CONTEXT_WINDOWS[id.slice(id.lastIndexOf("/") + 1)];
}

/**
 * At most this many tools per request, by provider: OpenAI's API reference says of `tools` "A max
 * of 128 functions are supported" (Chat Completions; the Responses API refuses more too). Anthropic
 * and Google document no such count, so none is assumed.
 */
const TOOL_COUNT_LIMITS: Record<string, number> = { openai: 128 };

export function toolCountLimitOf(provider: string | undefined): number | undefined {
  return provider === undefined ? undefined : TOOL_COUNT_LIMITS[provider];
}
