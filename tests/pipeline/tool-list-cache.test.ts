import { describe, expect, it } from "vitest";
import { toProviderFormat } from "../../lib/formats/provider-format";
import { toolListBodyParts, toolListBodyStream, toolListResponse } from "../../lib/pipeline/tool-list-body";
import { cachedToolLists, computeToolList, freezeCatalogState, TOOL_LISTS_PER_STATE, type CatalogState } from "../../lib/pipeline/tool-list";
import { DEFAULT_AGENTS } from "../../lib/rules/agents";
import { DEFAULT_RULES } from "../../lib/rules/catalog-rules";
import { demoCatalogState } from "../support/catalog-state";
import { builtinSet, context, makeTool } from "./fixtures";
import { runPipeline } from "../../lib/pipeline/run";

const CLAUDE = { model: "claude-sonnet-4-5", agent: "build" };
const GPT_PLAN = { model: "gpt-5", agent: "plan" };

const frozenDemo = (): CatalogState => freezeCatalogState(demoCatalogState());

describe("tool lists of a frozen (shared) catalog state", () => {
  it("are computed once per request and equal to those of an unfrozen copy", () => {
    const state = frozenDemo();
    const first = computeToolList(state, CLAUDE);
    expect(computeToolList(state, { ...CLAUDE })).toBe(first);
    expect(computeToolList(state, GPT_PLAN)).not.toBe(first);
    expect(computeToolList(state, { ...CLAUDE, format: "openai" })).not.toBe(first);
    expect(computeToolList(state, { ...CLAUDE, flags: ["experimental.lsp"] })).not.toBe(first);
    expect(cachedToolLists(state)).toBe(4);

    const unfrozen = demoCatalogState();
    const again = computeToolList(unfrozen, CLAUDE);
    expect(computeToolList(unfrozen, CLAUDE)).not.toBe(again);
    expect(cachedToolLists(unfrozen)).toBe(0);
    expect(JSON.parse(JSON.stringify(first))).toEqual(JSON.parse(JSON.stringify(again)));
    for (const request of [GPT_PLAN, { ...CLAUDE, format: "anthropic" as const }]) {
      expect(JSON.parse(JSON.stringify(computeToolList(state, request)))).toEqual(JSON.parse(JSON.stringify(computeToolList(unfrozen, request))));
    }
  });

  it("are frozen, so no caller can change what the next one reads", () => {
    const list = computeToolList(frozenDemo(), CLAUDE);
    expect(() => list.final.push(list.final[0])).toThrow(TypeError);
    expect(() => (list.tools as unknown[]).sort()).toThrow(TypeError);
    expect(Object.isFrozen(list.tokens)).toBe(true);
  });

  it("keep at most TOOL_LISTS_PER_STATE lists per state", () => {
    const state = frozenDemo();
    for (let index = 0; index < TOOL_LISTS_PER_STATE + 5; index++) computeToolList(state, { model: `model-${index}`, agent: "build" });
    expect(cachedToolLists(state)).toBe(TOOL_LISTS_PER_STATE);
  });

  it("share the final and formatted definition of every tool handed over unchanged", () => {
    const state = frozenDemo();
    const claude = computeToolList(state, CLAUDE);
    const gemini = computeToolList(state, { model: "gemini-2.5-pro", agent: "build" });
    const read = (list: typeof claude) => list.final.find((tool) => tool.name === "read")!;
    expect(read(gemini)).toBe(read(claude));
    expect(Object.isFrozen(read(claude))).toBe(true);
    expect(gemini.tools[gemini.final.indexOf(read(gemini))]).toBe(claude.tools[claude.final.indexOf(read(claude))]);
    // A tool of an unfrozen catalog is final-ised and formatted afresh every time.
    const loose = makeTool("loose");
    const [first] = runPipeline([loose], context()).tools;
    const [second] = runPipeline([loose], context()).tools;
    expect(second).not.toBe(first);
    expect(toProviderFormat([first], "openai")[0]).not.toBe(toProviderFormat([first], "openai")[0]);
  });

  it("run plugin hooks once per state and request, and again for a new state", () => {
    let calls = 0;
    const base = { catalogId: "hooks", tools: builtinSet(), rules: DEFAULT_RULES, agents: [...DEFAULT_AGENTS] };
    const hooked = (): CatalogState =>
      freezeCatalogState({
        ...base,
        tools: [...base.tools],
        definitionHooks: [
          (tool) => {
            calls++;
            return tool.name === "read" ? { description: "Read, as the plugin puts it." } : undefined;
          },
        ],
      });
    const state = hooked();
    const list = computeToolList(state, CLAUDE);
    const perList = calls;
    expect(perList).toBeGreaterThan(0);
    computeToolList(state, CLAUDE);
    expect(calls).toBe(perList);
    expect(list.final.find((tool) => tool.name === "read")?.description).toBe("Read, as the plugin puts it.");
    computeToolList(hooked(), CLAUDE);
    expect(calls).toBe(2 * perList);
  });
});

describe("toolListBodyParts", () => {
  it("gives exactly the bytes of JSON.stringify of the route's answer, and keeps the list's part", async () => {
    const state = frozenDemo();
    const list = computeToolList(state, GPT_PLAN);
    const head = { catalog: "demo", revision: 7, model: "gpt-5", agent: "plan", provider: list.provider ?? null, mode: list.mode, format: list.format };
    const expected = JSON.stringify({
      ...head,
      tools: list.tools,
      annotations: list.final.map(({ name, source, needsApproval }) => ({ name, source, needsApproval })),
      trace: list.trace,
      tokens: list.tokens,
    });
    expect(JSON.stringify(toolListResponse(head, list))).toBe(expected);
    const decode = (parts: Uint8Array[]) => Buffer.concat(parts).toString("utf8");
    const parts = toolListBodyParts(head, list);
    expect(decode(parts)).toBe(expected);
    // Only the head's bytes are new for another head.
    const again = toolListBodyParts({ ...head, revision: 8 }, list);
    expect(again.slice(1).every((part, index) => part.buffer === parts[index + 1].buffer)).toBe(true);
    expect(decode(toolListBodyParts({}, list))).toBe(
      JSON.stringify({ tools: list.tools, annotations: JSON.parse(expected).annotations, trace: list.trace, tokens: list.tokens }),
    );
    expect(await new Response(toolListBodyStream(head, list)).text()).toBe(expected);
  });
});
