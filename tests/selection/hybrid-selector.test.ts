import type { EmbeddingModelV4 } from "@ai-sdk/provider";
import { describe, expect, it, vi } from "vitest";
import { EmbeddingIndex, embeddingText, type EmbeddingStore } from "../../lib/selection/embedding-index";
import { createHybridSelector, HYBRID_SELECTOR_ID } from "../../lib/selection/hybrid-selector";
import { createLocalSelector } from "../../lib/selection/local-selector";
import type { SelectionCorpus, SelectionInput } from "../../lib/selection/selector";
import type { SelectorCandidate } from "../../lib/selection/types";

// Concepts a real model would know; "zorblat" is a word no lexical ranker can connect to the weather.
const CONCEPTS = [
  ["weather", "forecast", "rain", "zorblat"],
  ["email", "mail", "message"],
  ["issue", "bug", "ticket"],
  ["invoice", "billing", "payment"],
];

function conceptVector(text: string): number[] {
  const words = text.toLowerCase().match(/[a-z]+/g) ?? [];
  return CONCEPTS.map((concept) => words.filter((word) => concept.includes(word)).length).concat([0.01]);
}

interface MockModel extends EmbeddingModelV4 {
  /** The values of each doEmbed call. */
  calls: string[][];
}

function mockModel(options: { maxPerCall?: number; answer?: (values: string[], signal?: AbortSignal) => Promise<number[][]> } = {}): MockModel {
  const calls: string[][] = [];
  return {
    specificationVersion: "v4",
    provider: "mock",
    modelId: "concepts",
    maxEmbeddingsPerCall: options.maxPerCall ?? 100,
    supportsParallelCalls: false,
    calls,
    async doEmbed({ values, abortSignal }) {
      calls.push(values);
      const embeddings = options.answer ? await options.answer(values, abortSignal) : values.map(conceptVector);
      return { embeddings, warnings: [] };
    },
  };
}

function memoryStore(): EmbeddingStore & { vectors: Map<string, Float32Array> } {
  const vectors = new Map<string, Float32Array>();
  const key = (model: string, hash: string) => `${model}\n${hash}`;
  return {
    vectors,
    load: (model, hashes) => new Map(hashes.flatMap((hash) => (vectors.has(key(model, hash)) ? [[hash, vectors.get(key(model, hash))!] as const] : []))),
    save: (model, saved) => {
      for (const [hash, vector] of saved) vectors.set(key(model, hash), vector);
    },
    count: (model, hashes) => hashes.filter((hash) => vectors.has(key(model, hash))).length,
  };
}

const CATALOG: SelectorCandidate[] = [
  { name: "weather_forecast", summary: "Get the weather forecast for a city", parameterNames: ["city"] },
  { name: "send_email", summary: "Send an email message to a recipient", parameterNames: ["to", "subject"] },
  { name: "create_issue", summary: "Create an issue in a repository" },
  { name: "list_invoices", summary: "List a customer's invoices" },
  { name: "city_guide", summary: "Describe a city: sights, districts and history", parameterNames: ["city"] },
];

function corpus(tools: readonly SelectorCandidate[], revision: number): SelectionCorpus {
  return { key: `catalog@${revision}`, candidates: () => [...tools] };
}

function input(content: string, tools: readonly SelectorCandidate[] = CATALOG, revision = 1, k = 3): SelectionInput {
  return { candidates: [...tools], messages: [{ role: "user", content }], k, indexKey: `catalog@${revision}:m:a`, corpus: corpus(tools, revision) };
}

function setup(options: { model?: MockModel; store?: ReturnType<typeof memoryStore>; batchSize?: number; timeoutMs?: number } = {}) {
  const model = options.model ?? mockModel();
  const store = options.store ?? memoryStore();
  const log: string[] = [];
  const embeddings = new EmbeddingIndex({ modelId: "mock:concepts", model, store, batchSize: options.batchSize, log: (line) => log.push(line) });
  const selector = createHybridSelector({ embeddings, local: createLocalSelector(), timeoutMs: options.timeoutMs ?? 2_000 });
  return { model, store, log, embeddings, selector };
}

/** The doEmbed calls that embedded tools, not a request (a tool's text names the tool). */
const toolCalls = (model: MockModel) => model.calls.filter((values) => values.some((value) => CATALOG.some((tool) => value.startsWith(`${tool.name} (`))));

describe("the hybrid selector's embedding index", () => {
  it("embeds a catalog in batches no larger than the model allows, stores each batch and logs progress", async () => {
    const { model, store, log, selector } = setup({ model: mockModel({ maxPerCall: 2 }), batchSize: 3 });
    await selector.select(input("weather in Lyon"));
    expect(toolCalls(model).map((values) => values.length)).toEqual([2, 2, 1]);
    expect(store.vectors.size).toBe(CATALOG.length);
    expect(log.at(-1)).toBe("Embeddings (mock:concepts) of catalog@1: 5 of 5 tools.");
  });

  it("embeds an unchanged tool never again: not for the next request, a new revision, nor a restarted process", async () => {
    const { model, store, selector } = setup();
    await selector.select(input("weather in Lyon"));
    await selector.select(input("send a mail"));
    await selector.select(input("send a mail", CATALOG, 2));
    expect(toolCalls(model)).toHaveLength(1);

    const restarted = setup({ store });
    await restarted.selector.select(input("weather in Lyon", CATALOG, 3));
    expect(toolCalls(restarted.model)).toEqual([]);
    // Only the request was embedded.
    expect(restarted.model.calls).toEqual([["weather in Lyon"]]);
  });

  it("embeds an edited tool again, and only it", async () => {
    const { model, selector } = setup();
    await selector.select(input("weather in Lyon"));
    const edited = CATALOG.map((tool) => (tool.name === "list_invoices" ? { ...tool, summary: "List a customer's invoices and payments" } : tool));
    await selector.select(input("weather in Lyon", edited, 2));
    expect(toolCalls(model)).toHaveLength(2);
    expect(toolCalls(model)[1]).toEqual([embeddingText(edited[3])]);
  });

  it("reports progress from the store before any build, and the build's once it is done", async () => {
    const store = memoryStore();
    const first = setup({ store });
    await first.selector.select(input("weather"));
    const later = setup({ store });
    const grown = [...CATALOG, { name: "pay_invoice", summary: "Pay an invoice" }];
    expect(await later.embeddings.progress(corpus(grown, 2))).toEqual({ embedded: 5, total: 6, running: false, error: null });
    expect(await later.embeddings.ensure(corpus(grown, 2))).toEqual({ embedded: 5, total: 6, running: true, error: null });
    await later.embeddings.matrix(corpus(grown, 2));
    expect(await later.embeddings.progress(corpus(grown, 2))).toEqual({ embedded: 6, total: 6, running: false, error: null });
  });
});

describe("the hybrid selector", () => {
  it("fuses the local ranking with embedding similarity: a request in other words still finds its tool", async () => {
    const { selector } = setup();
    const local = await createLocalSelector().select(input("zorblat"));
    expect(local.ranked.map((tool) => tool.name)).not.toContain("weather_forecast");

    const output = await selector.select(input("zorblat"));
    expect(output.selector).toBe(HYBRID_SELECTOR_ID);
    expect(output.fallback).toBeUndefined();
    expect(output.ranked[0].name).toBe("weather_forecast");
    expect(output.raw).toMatchObject({ model: "mock:concepts", embedding: [{ name: "weather_forecast" }, {}, {}, {}, {}] });
  });

  it("ranks only the candidates: the catalog's nearest tool is left out when it is not visible", async () => {
    const { selector } = setup();
    const visible = CATALOG.filter((tool) => tool.name !== "weather_forecast");
    const output = await selector.select({ ...input("zorblat forecast"), candidates: visible });
    expect(output.ranked.map((tool) => tool.name)).not.toContain("weather_forecast");
  });

  it("answers with the local ranking and records the fallback when the embedding call fails", async () => {
    const { selector, embeddings } = setup({ model: mockModel({ answer: () => Promise.reject(new Error("quota exceeded")) }) });
    const output = await selector.select(input("weather forecast for Lyon"));
    expect(output.fallback).toEqual({ from: HYBRID_SELECTOR_ID, cause: "quota exceeded" });
    expect(output.selector).toBe("local");
    expect(output.ranked[0].name).toBe("weather_forecast");
    expect(output.ranked.length).toBeLessThanOrEqual(3);
    await vi.waitFor(async () => expect((await embeddings.progress(corpus(CATALOG, 1))).error).toBe("quota exceeded"));
  });

  it("falls back on a timeout while the catalog is embedding, saying how far it got, and uses the vectors once they are in", async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const model = mockModel({
      maxPerCall: 2,
      answer: async (values) => {
        // The second batch of tools waits until the test releases it; requests are answered at once.
        if (toolCalls(model).length === 2) await released;
        return values.map(conceptVector);
      },
    });
    const { selector } = setup({ model, batchSize: 2, timeoutMs: 100 });
    const early = await selector.select(input("zorblat"));
    expect(early.fallback).toEqual({ from: HYBRID_SELECTOR_ID, cause: "timeout after 100 ms (embedding the tools: 2 of 5 done)" });
    release();
    await vi.waitFor(async () => expect((await selector.select(input("zorblat"))).fallback).toBeUndefined());
    expect((await selector.select(input("zorblat"))).ranked[0].name).toBe("weather_forecast");
  });
});
