import { describe, expect, it } from "vitest";
import { KNOWN_MODELS, providerForModel } from "../../lib/rules/providers";

describe("providerForModel", () => {
  it("knows the listed models", () => {
    expect(providerForModel("gpt-oss-120b")).toBe("openai");
    expect(providerForModel("claude-3-7-sonnet")).toBe("anthropic");
    expect(providerForModel("gemini-2.5-flash")).toBe("google");
    expect(providerForModel("qwen3-coder")).toBe("openai-compatible");
  });

  it("infers the provider from common prefixes", () => {
    expect(providerForModel("gpt-5.1-codex")).toBe("openai");
    expect(providerForModel("o3-pro")).toBe("openai");
    expect(providerForModel("o4-mini-deep-research")).toBe("openai");
    expect(providerForModel("claude-opus-5")).toBe("anthropic");
    expect(providerForModel("gemini-3-pro")).toBe("google");
  });

  it("leaves unknown models unresolved", () => {
    expect(providerForModel("phi-4")).toBeUndefined();
    expect(providerForModel("o3x")).toBeUndefined();
  });

  it("lists every known model once", () => {
    const ids = KNOWN_MODELS.map((model) => model.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
