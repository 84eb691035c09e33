import type { LanguageModelV4CallOptions, LanguageModelV4Content, LanguageModelV4GenerateResult } from "@ai-sdk/provider";
import { generateText, stepCountIs, type ToolExecutionOptions } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it, vi } from "vitest";
import { createTurnTools, toToolSearchAnswer, unavailableToolMessage, type ToolSearchAnswer } from "../../lib/ai/turn-tools";
import type { FinalTool } from "../../lib/pipeline/types";
import { DEFAULT_AGENTS } from "../../lib/rules/agents";
import { createLocalSelector } from "../../lib/selection/local-selector";
import { runToolSearch } from "../../lib/selection/tool-search";
import { TOOL_SEARCH_NAME } from "../../lib/selection/tool-search-definition";
import { assembleTurnToolSet } from "../../lib/selection/turn";
import type { Selector } from "../../lib/selection/selector";
import { demoCatalogState, throwingSelectorDouble, viewFor } from "../support/catalog-state";

const CLAUDE = "claude-sonnet-4-5";

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

function toolCallStep(toolCallId: string, toolName: string, input: unknown): LanguageModelV4GenerateResult {
  const content: LanguageModelV4Content[] = [{ type: "tool-call", toolCallId, toolName, input: JSON.stringify(input) }];
  return { content, finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage, warnings: [] };
}

function textStep(text: string): LanguageModelV4GenerateResult {
  return { content: [{ type: "text", text }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] };
}

/** The names of the tools the SDK sent to the model in one call. */
const toolsSent = (call: LanguageModelV4CallOptions) => (call.tools ?? []).map((tool) => tool.name);

/** The tool results the model read in one call (its prompt's tool messages). */
const toolResultsSent = (call: LanguageModelV4CallOptions) =>
  call.prompt.flatMap((message) => (message.role === "tool" ? message.content : [])).filter((part) => part.type === "tool-result");

const ISSUE_ARGS = { owner: "acme", repo: "web-app", title: "Login fails on Safari", labels: ["bug"] };

/** One turn's tools over the demo catalog, wired as the playground would wire them. */
function setUp(options: { agent?: string; selector?: Selector; isSimulated?: (tool: FinalTool) => boolean } = {}) {
  const agent = options.agent ?? "build";
  const view = viewFor(demoCatalogState(), { model: CLAUDE, agent });
  const baseTools = DEFAULT_AGENTS.find((candidate) => candidate.name === agent)!.baseTools;
  const turn = assembleTurnToolSet({ baseTools, preselected: ["slack_post_message"], history: [], view });
  const selector = options.selector ?? throwingSelectorDouble();
  const searches: string[] = [];
  const searchCallIds: string[] = [];
  const execute = vi.fn(async (tool: FinalTool, args: unknown) => ({ ok: true, tool: tool.name, args, number: 128 }));
  const turnTools = createTurnTools({
    view,
    turnSet: turn.entries.map((entry) => entry.name),
    search: async (query, maxResults, toolCallId) => {
      searches.push(query);
      searchCallIds.push(toolCallId);
      return runToolSearch({ query, maxResults, view, selector, messages: [], indexKey: `demo@1:${CLAUDE}:${agent}:search` });
    },
    execute,
    isSimulated: options.isSimulated,
  });
  return { view, turnTools, execute, searches, searchCallIds };
}

describe("createTurnTools in a generateText loop", () => {
  it("makes a tool found by ToolSearch (select:) callable at the next step, and not before", async () => {
    const { turnTools, execute, searches } = setUp();
    const model = new MockLanguageModelV4({
      doGenerate: [
        toolCallStep("call-1", TOOL_SEARCH_NAME, { query: "select:github_create_issue" }),
        toolCallStep("call-2", "github_create_issue", ISSUE_ARGS),
        textStep("Filed issue #128."),
      ],
    });

    const result = await generateText({
      model,
      tools: turnTools.tools,
      prepareStep: turnTools.prepareStep,
      stopWhen: stepCountIs(5),
      prompt: "File a GitHub issue: login fails on Safari.",
    });

    expect(model.doGenerateCalls).toHaveLength(3);
    const [step1, step2, step3] = model.doGenerateCalls.map(toolsSent);

    // Step 1: the turn's tool set and ToolSearch, but not the tool it has yet to find.
    expect(step1).toContain(TOOL_SEARCH_NAME);
    expect(step1).toContain("slack_post_message");
    expect(step1).toContain("read");
    expect(step1).not.toContain("github_create_issue");
    // The whole visible catalog is defined, far more than the model is shown.
    expect(Object.keys(turnTools.tools).length).toBeGreaterThan(step1.length + 40);

    // ToolSearch ran on the exact path and its answer reached the model.
    expect(searches).toEqual(["select:github_create_issue"]);
    const searchResult = result.steps[0].toolResults[0];
    expect(searchResult.toolName).toBe(TOOL_SEARCH_NAME);
    const answer = searchResult.output as ToolSearchAnswer;
    expect(answer.path).toBe("exact");
    expect(answer.tools.map((tool) => tool.name)).toEqual(["github_create_issue"]);
    expect(answer.tools[0].inputSchema.properties).toHaveProperty("title");
    expect(answer.unavailable).toEqual([]);

    // Step 2: the found tool is now sent, alongside what was there before.
    expect(step2).toContain("github_create_issue");
    expect(step2).toContain(TOOL_SEARCH_NAME);
    expect(step2).toContain("slack_post_message");
    expect(execute).toHaveBeenCalledTimes(1);
    expect(execute.mock.calls[0][0].name).toBe("github_create_issue");
    expect(execute.mock.calls[0][1]).toEqual(ISSUE_ARGS);
    expect(result.steps[1].toolResults[0].output).toMatchObject({ ok: true, tool: "github_create_issue", number: 128 });

    // Step 3: the model answers; the found tool stays active for the rest of the turn.
    expect(step3).toContain("github_create_issue");
    expect(result.text).toBe("Filed issue #128.");
    expect(turnTools.found()).toEqual(["github_create_issue"]);
  });

  it("ends the run at a simulated tool's call, which carries a placeholder result; ToolSearch's search learns its call's id", async () => {
    const { turnTools, execute, searchCallIds } = setUp({ isSimulated: (tool) => tool.name === "github_create_issue" });
    const model = new MockLanguageModelV4({
      doGenerate: [
        toolCallStep("call-1", TOOL_SEARCH_NAME, { query: "select:github_create_issue" }),
        toolCallStep("call-2", "github_create_issue", ISSUE_ARGS),
      ],
    });

    const result = await generateText({ model, tools: turnTools.tools, prepareStep: turnTools.prepareStep, stopWhen: stepCountIs(5), prompt: "File it." });

    expect(searchCallIds).toEqual(["call-1"]);
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(execute).not.toHaveBeenCalled();
    const [call] = result.steps[1].toolCalls;
    expect(result.steps[1].toolResults).toEqual([]);
    expect(call.toolMetadata).toMatchObject({ simulated: true });
    expect(JSON.parse(String(call.toolMetadata?.placeholder))).toEqual({ simulated: true, tool: "github_create_issue", result: expect.any(String) });
  });

  it("finds the tool by a description with the local selector, then calls it", async () => {
    const { turnTools, execute } = setUp({ selector: createLocalSelector() });
    const model = new MockLanguageModelV4({
      doGenerate: [
        toolCallStep("call-1", TOOL_SEARCH_NAME, { query: "open a new issue in a GitHub repository", max_results: 3 }),
        toolCallStep("call-2", "github_create_issue", ISSUE_ARGS),
        textStep("Done."),
      ],
    });
    const result = await generateText({
      model,
      tools: turnTools.tools,
      prepareStep: turnTools.prepareStep,
      stopWhen: stepCountIs(5),
      prompt: "Report the Safari login bug on GitHub.",
    });

    const answer = result.steps[0].toolResults[0].output as ToolSearchAnswer;
    expect(answer.path).toBe("semantic");
    expect(answer.tools.length).toBeLessThanOrEqual(3);
    expect(answer.tools.map((tool) => tool.name)).toContain("github_create_issue");

    const [step1, step2] = model.doGenerateCalls.map(toolsSent);
    expect(step1).not.toContain("github_create_issue");
    expect(step2).toContain("github_create_issue");
    for (const name of answer.tools.map((tool) => tool.name)) expect(step2).toContain(name);
    expect(execute).toHaveBeenCalledWith(expect.objectContaining({ name: "github_create_issue" }), ISSUE_ARGS);
    expect(result.text).toBe("Done.");
  });

  it("turns away a call to a defined but inactive tool without executing it, telling the model to use ToolSearch", async () => {
    const { turnTools, execute } = setUp();
    expect(turnTools.tools).toHaveProperty("github_create_issue");
    const model = new MockLanguageModelV4({
      doGenerate: [toolCallStep("call-1", "github_create_issue", ISSUE_ARGS), textStep("I cannot file it yet.")],
    });
    const result = await generateText({
      model,
      tools: turnTools.tools,
      prepareStep: turnTools.prepareStep,
      repairToolCall: turnTools.repairToolCall,
      stopWhen: stepCountIs(5),
      prompt: "File the issue.",
    });

    expect(execute).not.toHaveBeenCalled();
    // The SDK parses calls against the step's active tools: the call ends as an error result...
    const errors = result.steps[0].content.filter((part) => part.type === "tool-error");
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ toolName: "github_create_issue" });
    expect(String((errors[0] as { error: unknown }).error)).toContain(unavailableToolMessage("github_create_issue"));
    expect(result.steps[0].toolResults).toEqual([]);
    expect(turnTools.found()).toEqual([]);
    expect(toolsSent(model.doGenerateCalls[1])).not.toContain("github_create_issue");
    // ...which the model reads at its next step as the call's result: what to do, not the SDK's exception.
    const answer = toolResultsSent(model.doGenerateCalls[1]).find((part) => part.toolCallId === "call-1");
    expect(answer?.output).toEqual({
      type: "error-text",
      value: expect.stringContaining(`load it with ${TOOL_SEARCH_NAME} first (query "select:github_create_issue")`),
    });
    expect(JSON.stringify(answer)).not.toMatch(/Available tools|unavailable tool/);
  });

  it("guards execution itself: an inactive tool's execute answers 'not available at this step'", async () => {
    const { turnTools, execute } = setUp();
    const options: ToolExecutionOptions<unknown> = { toolCallId: "direct-1", messages: [], context: {} };
    const inactive = await turnTools.tools.github_create_issue.execute!(ISSUE_ARGS, options);
    expect(inactive).toEqual({ error: expect.stringContaining("github_create_issue is not available at this step") });
    expect(inactive).toEqual({ error: expect.stringContaining(`load it with ${TOOL_SEARCH_NAME} first`) });
    expect(execute).not.toHaveBeenCalled();

    // Active tools run: a base tool of the turn, and the same tool once ToolSearch has found it.
    await turnTools.tools.read.execute!({ filePath: "/tmp/x" }, options);
    expect(execute).toHaveBeenCalledTimes(1);
    await turnTools.tools[TOOL_SEARCH_NAME].execute!({ query: "select:github_create_issue" }, options);
    await turnTools.tools.github_create_issue.execute!(ISSUE_ARGS, options);
    expect(execute).toHaveBeenCalledTimes(2);
    expect(execute.mock.calls[1][1]).toEqual(ISSUE_ARGS);
  });

  it("never defines a tool the agent's permissions hide, not even after ToolSearch asks for it", async () => {
    const { turnTools, execute, view } = setUp({ agent: "plan" });
    expect(turnTools.tools).not.toHaveProperty("bash");
    expect(turnTools.tools).not.toHaveProperty("edit");
    expect(Object.keys(turnTools.tools).sort()).toEqual([...view.visible.keys(), TOOL_SEARCH_NAME].sort());

    const model = new MockLanguageModelV4({
      doGenerate: [
        toolCallStep("call-1", TOOL_SEARCH_NAME, { query: "select:bash" }),
        toolCallStep("call-2", "bash", { command: "rm -rf build" }),
        textStep("I may not run commands."),
      ],
    });
    const result = await generateText({
      model,
      tools: turnTools.tools,
      prepareStep: turnTools.prepareStep,
      stopWhen: stepCountIs(5),
      prompt: "Clean the build folder.",
    });

    const answer = result.steps[0].toolResults[0].output as ToolSearchAnswer;
    expect(answer.tools).toEqual([]);
    expect(answer.unavailable).toEqual(["bash"]);
    expect(JSON.stringify(answer)).not.toMatch(/permissions|denies/);
    for (const call of model.doGenerateCalls) expect(toolsSent(call)).not.toContain("bash");
    expect(result.steps[1].content.filter((part) => part.type === "tool-error")).toHaveLength(1);
    expect(execute).not.toHaveBeenCalled();
    expect(turnTools.activeTools()).not.toContain("bash");
  });

  it("answers a call to a hidden or unknown tool with the same explicit result, revealing nothing", async () => {
    const { turnTools } = setUp({ agent: "plan" });
    const model = new MockLanguageModelV4({
      doGenerate: [
        {
          content: [
            { type: "tool-call", toolCallId: "hidden", toolName: "bash", input: JSON.stringify({ command: "ls" }) },
            { type: "tool-call", toolCallId: "invented", toolName: "teleport", input: "{}" },
          ],
          finishReason: { unified: "tool-calls", raw: "tool_calls" },
          usage,
          warnings: [],
        },
        textStep("Neither exists for me."),
      ],
    });
    await generateText({
      model,
      tools: turnTools.tools,
      prepareStep: turnTools.prepareStep,
      repairToolCall: turnTools.repairToolCall,
      stopWhen: stepCountIs(5),
      prompt: "List the files, then teleport.",
    });
    const results = toolResultsSent(model.doGenerateCalls[1]);
    expect(results.map((part) => [part.toolCallId, part.output])).toEqual([
      ["hidden", { type: "error-text", value: expect.stringContaining(unavailableToolMessage("bash")) }],
      ["invented", { type: "error-text", value: expect.stringContaining(unavailableToolMessage("teleport")) }],
    ]);
  });
});

/** An MCP result as a server might send it: `size` characters of text, and structured content. */
function hugeMcpResult(size: number) {
  return {
    content: [
      { type: "text" as const, text: "x".repeat(size) },
      { type: "image" as const, data: "A".repeat(5_000), mimeType: "image/png" },
    ],
    isError: false,
    structuredContent: { rows: ["y".repeat(5_000)] },
  };
}

describe("live MCP results in the turn loop", () => {
  function runWith(result: unknown, resultMaxChars?: number) {
    const view = viewFor(demoCatalogState({ patch: { slack_post_message: { source: "mcp" } } }), { model: CLAUDE, agent: "build" });
    const turnTools = createTurnTools({
      view,
      turnSet: ["slack_post_message"],
      search: async () => {
        throw new Error("not searched");
      },
      execute: async () => result,
      resultMaxChars,
    });
    const model = new MockLanguageModelV4({
      doGenerate: [toolCallStep("call-1", "slack_post_message", { channel: "#general", text: "hi" }), textStep("Posted.")],
    });
    return generateText({ model, tools: turnTools.tools, prepareStep: turnTools.prepareStep, stopWhen: stepCountIs(3), prompt: "Post hi." }).then((run) => ({
      run,
      model,
    }));
  }

  it("cuts a result over the limit (100,000 characters by default) with a visible note, in the step's output and in what the model reads next", async () => {
    // 1,234,567 characters of text + 5,000 of image data + 5,013 of structured content (as JSON).
    const { run, model } = await runWith(hugeMcpResult(1_234_567));
    const output = run.steps[0].toolResults[0].output as { content: { type: string; text?: string }[]; structuredContent?: unknown; isError: boolean };
    expect(output.content.map((block) => block.type)).toEqual(["text", "text"]);
    expect(output.content[0].text).toBe("x".repeat(100_000));
    expect(output.content[1].text).toBe("… [truncated: 1,244,580 characters, limit 100,000]");
    expect(output.structuredContent).toBeUndefined();
    expect(output.isError).toBe(false);

    const sent = JSON.stringify(toolResultsSent(model.doGenerateCalls[1]));
    expect(sent.length).toBeLessThan(101_000);
    expect(sent).toContain("[truncated: 1,244,580 characters, limit 100,000]");
  });

  it("follows the configured limit, and leaves a result within it as it is", async () => {
    const small = hugeMcpResult(100);
    expect((await runWith(small, 20_000)).run.steps[0].toolResults[0].output).toEqual(small);
    const { run } = await runWith(small, 50);
    expect(run.steps[0].toolResults[0].output).toEqual({
      content: [
        { type: "text", text: "x".repeat(50) },
        { type: "text", text: "… [truncated: 10,113 characters, limit 50]" },
      ],
      isError: false,
    });
  });
});

describe("toToolSearchAnswer", () => {
  it("tells the model what to do when nothing passed", () => {
    const answer = toToolSearchAnswer({ path: "semantic", requested: ["x"], tools: [], rejected: [{ name: "x", reason: "r" }], latencyMs: 1 });
    expect(answer).toEqual({ path: "semantic", tools: [], unavailable: ["x"], note: expect.stringMatching(/^No tool matched/) });
  });
});
