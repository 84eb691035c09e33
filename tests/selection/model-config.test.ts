import { describe, expect, it } from "vitest";
import {
  auxSelectorFromEnv,
  createLanguageModel,
  defaultSelectorId,
  describeModelConfig,
  embeddingModelFromEnv,
  mainModelFromEnv,
  parseModelSpec,
} from "../../lib/ai/models";
import { ToolshedError } from "../../lib/errors";

function thrown(run: () => unknown): ToolshedError {
  try {
    run();
  } catch (error) {
    if (error instanceof ToolshedError) return error;
    throw error;
  }
  throw new Error("expected a ToolshedError");
}

describe("parseModelSpec", () => {
  it("accepts local and the three provider forms", () => {
    expect(parseModelSpec("local")).toEqual({ provider: "local" });
    expect(parseModelSpec("openai:gpt-5-mini")).toEqual({ provider: "openai", model: "gpt-5-mini" });
    expect(parseModelSpec(" anthropic:claude-haiku-4-5 ")).toEqual({ provider: "anthropic", model: "claude-haiku-4-5" });
    // Model ids may themselves contain colons (e.g. Ollama tags).
    expect(parseModelSpec("openai-compatible:qwen3:8b")).toEqual({ provider: "openai-compatible", model: "qwen3:8b" });
  });

  it.each(["", "gpt-5", "openai:", "mistral:large", "LOCAL", ":model"])("rejects %j, naming the variable and the forms", (value) => {
    const error = thrown(() => parseModelSpec(value, "TOOLSHED_MAIN_MODEL"));
    expect(error.code).toBe("bad_request");
    expect(error.field).toBe("TOOLSHED_MAIN_MODEL");
    expect(error.message).toContain("TOOLSHED_MAIN_MODEL");
    expect(error.message).toContain("openai-compatible:<model>");
  });
});

describe("createLanguageModel", () => {
  it("builds each provider's model", () => {
    const openai = createLanguageModel({ provider: "openai", model: "gpt-5-mini" }, { OPENAI_API_KEY: "sk-test" });
    expect(openai.provider).toBe("openai.chat");
    expect(openai.modelId).toBe("gpt-5-mini");
    const anthropic = createLanguageModel({ provider: "anthropic", model: "claude-haiku-4-5" }, { ANTHROPIC_API_KEY: "k" });
    expect(anthropic.provider).toMatch(/^anthropic/);
    const compatible = createLanguageModel(
      { provider: "openai-compatible", model: "llama" },
      { TOOLSHED_OPENAI_COMPATIBLE_BASE_URL: "http://127.0.0.1:11434/v1" },
    );
    expect(compatible.provider).toMatch(/^openai-compatible/);
    expect(compatible.modelId).toBe("llama");
  });

  it("fails at configuration time without a required key or base URL", () => {
    expect(thrown(() => createLanguageModel({ provider: "openai", model: "m" }, { OPENAI_API_KEY: " " })).field).toBe("OPENAI_API_KEY");
    expect(thrown(() => createLanguageModel({ provider: "anthropic", model: "m" }, {})).message).toContain("ANTHROPIC_API_KEY");
    const missingUrl = thrown(() => createLanguageModel({ provider: "openai-compatible", model: "m" }, {}));
    expect(missingUrl.field).toBe("TOOLSHED_OPENAI_COMPATIBLE_BASE_URL");
    const badUrl = thrown(() => createLanguageModel({ provider: "openai-compatible", model: "m" }, { TOOLSHED_OPENAI_COMPATIBLE_BASE_URL: "localhost:1234" }));
    expect(badUrl.message).toContain("not a URL");
  });
});

describe("selectors and models from the environment", () => {
  it("uses the local selector by default", () => {
    expect(auxSelectorFromEnv({}).id).toBe("local");
    expect(auxSelectorFromEnv({ TOOLSHED_AUX_MODEL: "local" }).id).toBe("local");
  });

  it("uses a model selector named after its spec", () => {
    const selector = auxSelectorFromEnv({ TOOLSHED_AUX_MODEL: "openai:gpt-5-mini", OPENAI_API_KEY: "sk-test" });
    expect(selector.id).toBe("openai:gpt-5-mini");
  });

  it("rejects bad timeouts and shortlist sizes", () => {
    const env = { TOOLSHED_AUX_MODEL: "openai:gpt-5-mini", OPENAI_API_KEY: "sk-test" };
    expect(thrown(() => auxSelectorFromEnv({ ...env, TOOLSHED_AUX_TIMEOUT_MS: "soon" })).field).toBe("TOOLSHED_AUX_TIMEOUT_MS");
    expect(thrown(() => auxSelectorFromEnv({ ...env, TOOLSHED_AUX_SHORTLIST: "0" })).field).toBe("TOOLSHED_AUX_SHORTLIST");
  });

  it("has no main model unless one is configured, and never a local one", () => {
    expect(mainModelFromEnv({})).toBeUndefined();
    const main = mainModelFromEnv({ TOOLSHED_MAIN_MODEL: "anthropic:claude-sonnet-4-5", ANTHROPIC_API_KEY: "k" });
    expect(main?.id).toBe("anthropic:claude-sonnet-4-5");
    expect(main?.model.modelId).toBe("claude-sonnet-4-5");
    expect(thrown(() => mainModelFromEnv({ TOOLSHED_MAIN_MODEL: "local" })).field).toBe("TOOLSHED_MAIN_MODEL");
  });
});

describe("describeModelConfig", () => {
  it("describes the defaults", () => {
    const unset = { spec: null, provider: null, model: null, baseUrl: null, keyVariable: null, keySet: false, error: null };
    expect(describeModelConfig({})).toEqual({
      aux: { ...unset, variable: "TOOLSHED_AUX_MODEL", spec: "local", provider: "local", timeoutMs: null, shortlist: null },
      main: { ...unset, variable: "TOOLSHED_MAIN_MODEL" },
      embedding: { ...unset, variable: "TOOLSHED_EMBEDDING_MODEL", timeoutMs: null, batchSize: null },
      defaultSelector: "local",
    });
  });

  it("shows providers, models, URLs and whether keys are set, never the keys", () => {
    const env = {
      TOOLSHED_AUX_MODEL: "openai-compatible:qwen3",
      TOOLSHED_OPENAI_COMPATIBLE_BASE_URL: "https://proxy-user:url-secret-42@llm.example.com/v1?api-key=query-secret-42",
      TOOLSHED_OPENAI_COMPATIBLE_API_KEY: "compat-secret-42",
      TOOLSHED_AUX_TIMEOUT_MS: "3000",
      TOOLSHED_MAIN_MODEL: "openai:gpt-5",
      OPENAI_API_KEY: "sk-openai-secret-42",
      TOOLSHED_EMBEDDING_MODEL: "openai:text-embedding-3-small",
      TOOLSHED_EMBEDDING_BATCH: "100",
    };
    const description = describeModelConfig(env);
    expect(description.aux).toMatchObject({
      provider: "openai-compatible",
      model: "qwen3",
      baseUrl: "https://llm.example.com/v1",
      keyVariable: "TOOLSHED_OPENAI_COMPATIBLE_API_KEY",
      keySet: true,
      error: null,
      timeoutMs: 3000,
      shortlist: 150,
    });
    expect(description.main).toMatchObject({ provider: "openai", model: "gpt-5", keySet: true, error: null });
    expect(description.embedding).toMatchObject({
      provider: "openai",
      model: "text-embedding-3-small",
      keySet: true,
      error: null,
      timeoutMs: 3000,
      batchSize: 100,
    });
    // An auxiliary model is set: it stays the default, the hybrid selector is there on request.
    expect(description.defaultSelector).toBe("openai-compatible:qwen3");
    const shown = JSON.stringify(description);
    expect(shown).not.toMatch(/secret/);
  });

  it("reports configuration errors instead of throwing", () => {
    const description = describeModelConfig({ TOOLSHED_AUX_MODEL: "anthropic:claude-haiku-4-5", TOOLSHED_MAIN_MODEL: "gpt-5" });
    expect(description.aux).toMatchObject({ provider: "anthropic", keySet: false });
    expect(description.aux.error).toContain("ANTHROPIC_API_KEY");
    expect(description.main.error).toContain("TOOLSHED_MAIN_MODEL");
    expect(description.main.provider).toBeNull();
  });
});

describe("the embedding model", () => {
  it("is unset by default, and then the hybrid selector is not offered", () => {
    expect(embeddingModelFromEnv({})).toBeUndefined();
    expect(defaultSelectorId({})).toBe("local");
  });

  it("takes openai and openai-compatible models, with the providers' key and base URL variables", () => {
    const openai = embeddingModelFromEnv({ TOOLSHED_EMBEDDING_MODEL: "openai:text-embedding-3-small", OPENAI_API_KEY: "sk-test" })!;
    expect(openai).toMatchObject({ id: "openai:text-embedding-3-small", timeoutMs: 3000, batchSize: 256 });
    expect(openai.model.modelId).toBe("text-embedding-3-small");
    const compatible = embeddingModelFromEnv({
      TOOLSHED_EMBEDDING_MODEL: "openai-compatible:nomic-embed-text",
      TOOLSHED_OPENAI_COMPATIBLE_BASE_URL: "http://127.0.0.1:11434/v1",
      TOOLSHED_EMBEDDING_TIMEOUT_MS: "500",
      TOOLSHED_EMBEDDING_BATCH: "64",
    })!;
    expect(compatible).toMatchObject({ id: "openai-compatible:nomic-embed-text", timeoutMs: 500, batchSize: 64 });
    expect(compatible.model.provider).toContain("openai-compatible");
  });

  it("makes the hybrid selector the default unless an auxiliary model is set", () => {
    expect(defaultSelectorId({ TOOLSHED_EMBEDDING_MODEL: "openai:text-embedding-3-small" })).toBe("hybrid");
    expect(defaultSelectorId({ TOOLSHED_EMBEDDING_MODEL: "openai:text-embedding-3-small", TOOLSHED_AUX_MODEL: "local" })).toBe("local");
  });

  it.each([
    [{ TOOLSHED_EMBEDDING_MODEL: "anthropic:claude-haiku-4-5", ANTHROPIC_API_KEY: "k" }, "TOOLSHED_EMBEDDING_MODEL", /not an embedding model/],
    [{ TOOLSHED_EMBEDDING_MODEL: "local" }, "TOOLSHED_EMBEDDING_MODEL", /not an embedding model/],
    [{ TOOLSHED_EMBEDDING_MODEL: "text-embedding-3-small" }, "TOOLSHED_EMBEDDING_MODEL", /is not a model/],
    [{ TOOLSHED_EMBEDDING_MODEL: "openai:text-embedding-3-small" }, "OPENAI_API_KEY", /needs OPENAI_API_KEY/],
    [{ TOOLSHED_EMBEDDING_MODEL: "openai-compatible:e5" }, "TOOLSHED_OPENAI_COMPATIBLE_BASE_URL", /is required/],
    [{ TOOLSHED_EMBEDDING_MODEL: "openai:e", OPENAI_API_KEY: "k", TOOLSHED_EMBEDDING_BATCH: "0" }, "TOOLSHED_EMBEDDING_BATCH", /positive whole number/],
  ])("refuses %j, naming %s", (env, field, message) => {
    const error = thrown(() => embeddingModelFromEnv(env));
    expect(error.field).toBe(field);
    expect(error.message).toMatch(message);
    expect(describeModelConfig(env).embedding.error).toMatch(message);
  });
});
