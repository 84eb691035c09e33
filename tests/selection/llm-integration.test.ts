import { isStepCount, streamText, tool } from "ai";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { auxSelectorFromEnv, createLanguageModel } from "../../lib/ai/models";
import type { SelectionInput } from "../../lib/selection/selector";
import type { SelectorCandidate } from "../../lib/selection/types";
import { useScriptedServer } from "../support/scripted-server-lifecycle";

const start = useScriptedServer();

const envFor = (url: string, extra: Record<string, string> = {}) => ({
  TOOLSHED_AUX_MODEL: "openai-compatible:scripted-model",
  TOOLSHED_OPENAI_COMPATIBLE_BASE_URL: url,
  TOOLSHED_OPENAI_COMPATIBLE_API_KEY: "scripted-key",
  ...extra,
});

const catalog: SelectorCandidate[] = [
  { name: "weather_forecast", summary: "Get the weather forecast for a city", parameterNames: ["city"] },
  { name: "send_email", summary: "Send an email message to a recipient", parameterNames: ["to", "subject", "body"] },
  { name: "create_issue", summary: "Create an issue in a GitHub repository" },
];

const input: SelectionInput = {
  candidates: catalog,
  messages: [{ role: "user", content: "What's the weather in Lyon? Email it to Ana." }],
  k: 5,
  indexKey: "integration@1",
};

describe("LLM selector against an OpenAI-compatible server", () => {
  it("keeps the valid names the model returns and rejects invented ones", async () => {
    const modelOutput = {
      tools: [
        { name: "send_email", relevance: 0.8 },
        { name: "book_flight", relevance: 0.95 },
        { name: "weather_forecast", relevance: 0.9 },
      ],
    };
    const { url, chatRequests, requests } = await start([{ json: modelOutput }]);
    const output = await auxSelectorFromEnv(envFor(url)).select(input);

    expect(output.selector).toBe("openai-compatible:scripted-model");
    expect(output.fallback).toBeUndefined();
    expect(output.ranked).toEqual([
      { name: "weather_forecast", score: 0.9 },
      { name: "send_email", score: 0.8 },
    ]);
    expect(output.invented).toEqual(["book_flight"]);
    expect(output.raw).toEqual(modelOutput);

    const [request] = chatRequests;
    expect(request.model).toBe("scripted-model");
    expect(request.response_format).toMatchObject({ type: "json_schema", json_schema: { name: "response" } });
    const promptText = JSON.stringify(request.messages);
    expect(promptText).toContain("weather_forecast: Get the weather forecast for a city");
    expect(promptText).not.toContain("parameterNames");
    expect(promptText).not.toContain("subject");
    expect(requests[0].authorization).toBe("Bearer scripted-key");
  });

  it("asks for json_object when structured outputs are switched off", async () => {
    const { url, chatRequests } = await start([{ json: { tools: [{ name: "weather_forecast", relevance: 1 }] } }]);
    const output = await auxSelectorFromEnv(envFor(url, { TOOLSHED_OPENAI_COMPATIBLE_STRUCTURED_OUTPUTS: "false" })).select(input);
    expect(chatRequests[0].response_format).toEqual({ type: "json_object" });
    expect(output.ranked).toEqual([{ name: "weather_forecast", score: 1 }]);
  });

  it("falls back to the local selector when the server hangs, and hangs up on it", async () => {
    const { url, chatRequests, abandoned } = await start([{ hang: true }]);
    const output = await auxSelectorFromEnv(envFor(url, { TOOLSHED_AUX_TIMEOUT_MS: "300" })).select(input);
    expect(output.fallback).toEqual({ from: "openai-compatible:scripted-model", cause: "timeout after 300 ms" });
    // The timeout aborted the call: the server saw its one request closed, and no retry.
    await vi.waitFor(() => expect(abandoned).toHaveLength(1));
    expect(chatRequests).toHaveLength(1);
    expect(output.selector).toBe("local");
    expect(output.ranked.map((tool) => tool.name)).toContain("weather_forecast");
  });

  it("falls back to the local selector on a server error, once (no retries)", async () => {
    const { url, chatRequests } = await start([{ status: 500, body: { error: { message: "model overloaded" } } }]);
    const output = await auxSelectorFromEnv(envFor(url)).select(input);
    expect(output.fallback).toEqual({ from: "openai-compatible:scripted-model", cause: "model overloaded" });
    expect(output.selector).toBe("local");
    expect(output.ranked.length).toBeGreaterThan(0);
    expect(chatRequests).toHaveLength(1);
  });

  it("falls back on a reply that is not JSON, keeping it in raw", async () => {
    const { url } = await start([{ text: "Use weather_forecast." }]);
    const output = await auxSelectorFromEnv(envFor(url)).select(input);
    expect(output.fallback?.cause).toMatch(/^unparseable output/);
    expect(output.raw).toMatchObject({ modelOutput: "Use weather_forecast." });
  });
});

describe("streaming through the openai-compatible provider", () => {
  it("streams text", async () => {
    const { url, chatRequests } = await start([{ text: "Hello from the scripted server." }]);
    const model = createLanguageModel({ provider: "openai-compatible", model: "scripted-model" }, envFor(url));
    const result = streamText({ model, prompt: "Say hello", maxRetries: 0 });
    const parts: string[] = [];
    for await (const part of result.textStream) parts.push(part);
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.join("")).toBe("Hello from the scripted server.");
    expect(await result.finishReason).toBe("stop");
    expect(chatRequests[0].stream).toBe(true);
  });

  it("streams a tool call that the SDK executes before the next step", async () => {
    const { url, chatRequests } = await start([{ toolCalls: [{ name: "weather_forecast", arguments: { city: "Lyon" } }] }, { text: "Sunny in Lyon." }]);
    const model = createLanguageModel({ provider: "openai-compatible", model: "scripted-model" }, envFor(url));
    const calls: string[] = [];
    const result = streamText({
      model,
      prompt: "Weather in Lyon?",
      maxRetries: 0,
      stopWhen: isStepCount(2),
      tools: {
        weather_forecast: tool({
          description: "Get the weather forecast for a city",
          inputSchema: z.object({ city: z.string() }),
          execute: async ({ city }) => {
            calls.push(city);
            return { city, forecast: "sunny" };
          },
        }),
      },
    });
    expect(await result.text).toBe("Sunny in Lyon.");
    expect(calls).toEqual(["Lyon"]);
    const steps = await result.steps;
    expect(steps[0].toolCalls.map((call) => [call.toolName, call.input])).toEqual([["weather_forecast", { city: "Lyon" }]]);
    expect(chatRequests[0].tools?.[0].function.name).toBe("weather_forecast");
    // The second request carries the tool result back to the model.
    expect(JSON.stringify(chatRequests[1].messages)).toContain("sunny");
  });
});
