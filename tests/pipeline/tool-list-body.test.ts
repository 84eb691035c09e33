import { describe, expect, it } from "vitest";
import { seededRandom } from "../../bench/synthetic";
import { PROVIDER_FORMATS, type ProviderFormat } from "../../lib/formats/provider-format";
import {
  cachedToolListBodies,
  TOOL_LIST_BODY_CACHE_BYTES,
  ITEMS_PER_CHUNK,
  ToolListBodies,
  toolListBodyParts,
  toolListBodyStream,
  toolListEntityTag,
  toolListResponse,
} from "../../lib/pipeline/tool-list-body";
import { computeToolList, freezeCatalogState, type CatalogState, type ToolList, type ToolListRequest } from "../../lib/pipeline/tool-list";
import type { DefinitionHook } from "../../lib/pipeline/types";
import { DEFAULT_AGENTS } from "../../lib/rules/agents";
import { DEFAULT_RULES } from "../../lib/rules/catalog-rules";
import { BUILTIN_TOOLS } from "../../lib/tools/builtin";
import type { Tool } from "../../lib/tools/types";

const COMBINATIONS = ["gpt-5", "gpt-4.1", "claude-sonnet-4-5", "gemini-2.5-pro"].flatMap((model) => ["build", "plan"].map((agent) => ({ model, agent })));
const CUSTOM_TOOLS = 3 * ITEMS_PER_CHUNK;
/** A custom tool in the middle of the second block, which the plugin hook rewrites for GPT models. */
const HOOKED = `custom_${ITEMS_PER_CHUNK + 20}`;

/** The built-in tools and enough custom tools with schemas of their own to fill a few blocks. */
function catalogTools(customTools = CUSTOM_TOOLS): Tool[] {
  const builtins = BUILTIN_TOOLS.map((tool): Tool => ({ ...tool, tags: [...tool.tags], source: "builtin", enabled: true, registered: true }));
  const custom = Array.from(
    { length: customTools },
    (_, index): Tool => ({
      name: `custom_${index}`,
      summary: `Custom tool ${index}.`,
      description: `Custom tool ${index}: looks up the records of service ${index % 17} by key and returns them, newest first, with their owners and labels — größe ✓, "quoted" and \\ escaped.`,
      inputSchema: {
        type: "object",
        properties: {
          key: { type: "string", description: `Key of the record of tool ${index}.` },
          limit: { type: "integer", minimum: 1, maximum: 100, description: "How many records at most." },
          order: { type: "string", enum: ["newest", "oldest"] },
          labels: { type: "array", items: { type: "string" } },
        },
        required: ["key"],
      },
      source: "custom",
      enabled: true,
      registered: true,
      tags: [],
      requires: {},
    }),
  );
  return [...builtins, ...custom];
}

const gptNote: DefinitionHook = (tool, ctx) =>
  tool.name === HOOKED && ctx.modelId.startsWith("gpt-") ? { description: `${tool.description} (as the plugin puts it)` } : undefined;

function catalogState(tools: Tool[] = catalogTools()): CatalogState {
  return freezeCatalogState({ catalogId: "bodies", tools, rules: DEFAULT_RULES, agents: [...DEFAULT_AGENTS], definitionHooks: [gptNote] });
}

function headOf(request: ToolListRequest, list: ToolList) {
  return { catalog: "bodies", revision: 1, ...request, provider: list.provider ?? null, mode: list.mode, format: list.format };
}

const decode = (parts: Uint8Array[]) => Buffer.concat(parts).toString("utf8");

describe("tool-list bodies", () => {
  it("are exactly the bytes of JSON.stringify of the route's answer, for the 8 combinations in every format, a plugin hook's rewrite included", async () => {
    const state = catalogState();
    for (const format of PROVIDER_FORMATS) {
      for (const combination of COMBINATIONS) {
        const request = { ...combination, format };
        const list = computeToolList(state, request);
        const head = headOf(request, list);
        const expected = JSON.stringify(toolListResponse(head, list));
        expect(decode(toolListBodyParts(head, list))).toBe(expected);
        // Again, from what was kept.
        expect(decode(toolListBodyParts(head, list))).toBe(expected);
        expect(decode(toolListBodyParts({}, list))).toBe(JSON.stringify(toolListResponse({}, list)));
      }
    }
    const gpt = computeToolList(state, { model: "gpt-5", agent: "build" });
    expect(gpt.final.find((tool) => tool.name === HOOKED)?.description).toMatch(/as the plugin puts it/);
    const head = headOf({ model: "gpt-5", agent: "build" }, gpt);
    expect(await new Response(toolListBodyStream(head, gpt)).text()).toBe(JSON.stringify(toolListResponse(head, gpt)));
  });

  it("keep the bytes of the tools the 8 combinations hand over alike once, beside each list's own parts", () => {
    const state = catalogState(catalogTools(8 * ITEMS_PER_CHUNK));
    const before = cachedToolListBodies().bytes;
    let toolBytes = 0;
    let ownParts = 0;
    for (const combination of COMBINATIONS) {
      const list = computeToolList(state, combination);
      toolListBodyParts(headOf(combination, list), list);
      const tools = Buffer.byteLength(JSON.stringify(list.tools));
      toolBytes = Math.max(toolBytes, tools);
      ownParts += Buffer.byteLength(JSON.stringify(toolListResponse({}, list))) - tools;
    }
    // Kept whole per list, the tools' bytes would be kept 8 times; shared, once, and the blocks
    // a combination hands over with other tools than the rest once per such combination.
    expect(cachedToolListBodies().bytes - before - ownParts).toBeLessThan(2 * toolBytes);
  });

  it("have a strong entity tag that is equal exactly when the bytes are", () => {
    const tools = catalogTools();
    const state = catalogState(tools);
    // Equal tools as new objects (a new revision that changed nothing), and one whose changed tool lies inside a block.
    const copy = catalogState(tools.map((tool) => ({ ...tool, inputSchema: structuredClone(tool.inputSchema) })));
    const changedName = `custom_${2 * ITEMS_PER_CHUNK + 7}`;
    const changed = catalogState(tools.map((tool) => (tool.name === changedName ? { ...tool, description: `${tool.description} Changed.` } : tool)));
    const answers: { tag: string; bytes: string }[] = [];
    for (const someState of [state, copy, changed]) {
      for (const format of ["ai-sdk", "anthropic"] as ProviderFormat[]) {
        for (const combination of COMBINATIONS.slice(0, 4)) {
          const request = { ...combination, format };
          const list = computeToolList(someState, request);
          for (const head of [headOf(request, list), { ...headOf(request, list), revision: 2 }]) {
            answers.push({ tag: toolListEntityTag(head, list), bytes: decode(toolListBodyParts(head, list)) });
          }
        }
      }
    }
    let equalPairs = 0;
    for (const [index, a] of answers.entries()) {
      for (const b of answers.slice(index + 1)) {
        expect(a.tag === b.tag).toBe(a.bytes === b.bytes);
        if (a.bytes === b.bytes) equalPairs++;
      }
    }
    // Each answer of `state` has its equal in `copy`, and only there.
    expect(equalPairs).toBe(answers.length / 3);
  });

  it("stay within their byte budget, building again what was pushed out", () => {
    const state = catalogState(catalogTools(2 * ITEMS_PER_CHUNK));
    const budget = 256 * 1024;
    const bodies = new ToolListBodies(budget);
    for (let round = 0; round < 2; round++) {
      for (const format of ["ai-sdk", "openai"] as ProviderFormat[]) {
        for (const combination of COMBINATIONS) {
          const request = { ...combination, format };
          const list = computeToolList(state, request);
          const head = headOf(request, list);
          expect(decode(bodies.parts(head, list))).toBe(JSON.stringify(toolListResponse(head, list)));
          expect(bodies.cached().bytes).toBeLessThanOrEqual(budget);
        }
      }
    }
    expect(bodies.cached().chunks).toBeGreaterThan(0);
    // Each list's own parts are kept with the list: asked again, every part after the head is the same bytes.
    const roomy = new ToolListBodies(TOOL_LIST_BODY_CACHE_BYTES);
    const lists = COMBINATIONS.map((combination) => computeToolList(state, combination));
    const first = lists.map((list) => roomy.parts({}, list));
    lists.forEach((list, index) => {
      expect(roomy.parts({}, list).every((part, at) => at === 0 || part.buffer === first[index][at].buffer)).toBe(true);
    });
  });

  it("cut the annotations and token counts into chunks of many more items than the tools, so a long list goes out in few parts", () => {
    const tools = catalogTools(32 * ITEMS_PER_CHUNK);
    const list = computeToolList(catalogState(tools), { ...COMBINATIONS[0], format: "openai" });
    const parts = new ToolListBodies(TOOL_LIST_BODY_CACHE_BYTES).parts({}, list);
    // About one part per chunk of tools; in chunks as small, the annotations and the counts would add as many again each.
    expect(parts.length).toBeLessThan((2 * tools.length) / ITEMS_PER_CHUNK);
    expect(decode(parts)).toBe(JSON.stringify(toolListResponse({}, list)));
  });

  it("of a revision that edits one tool are made of the earlier revision's chunks but the three around that tool", () => {
    const tools = catalogTools(8 * ITEMS_PER_CHUNK);
    const bodies = new ToolListBodies(TOOL_LIST_BODY_CACHE_BYTES);
    const request = { ...COMBINATIONS[0], format: "openai" as const };
    const earlierState = catalogState(tools);
    const earlier = computeToolList(earlierState, request);
    bodies.parts({}, earlier);
    const before = bodies.cached().chunks;
    const edited = `custom_${5 * ITEMS_PER_CHUNK + 3}`;
    // The next revision as the app makes it: the unchanged tools the same objects, the state made from the one it replaces.
    const nextState = freezeCatalogState(
      { ...earlierState, tools: tools.map((tool) => (tool.name === edited ? { ...tool, description: `${tool.description} Edited.` } : tool)) },
      earlierState,
    );
    const next = computeToolList(nextState, request);
    const parts = bodies.parts({}, next);
    expect(decode(parts)).toBe(JSON.stringify(toolListResponse({}, next)));
    // One new chunk each for the tools, their annotations and their token counts.
    expect(bodies.cached().chunks - before).toBe(3);
    expect(bodies.entityTag({}, next)).not.toBe(bodies.entityTag({}, earlier));
  });

  it("of a request's next lists, over random edits, insertions, removals and renames, are the bytes of JSON.stringify, made mostly of kept chunks", () => {
    const random = seededRandom(5);
    const bodies = new ToolListBodies(TOOL_LIST_BODY_CACHE_BYTES);
    const request = { ...COMBINATIONS[0], format: "openai" as const };
    let tools = catalogTools(8 * ITEMS_PER_CHUNK);
    let state = catalogState(tools);
    bodies.parts({}, computeToolList(state, request));
    for (let serial = 0; serial < 48; serial++) {
      const at = Math.floor(random() * (tools.length - 20));
      const kind = serial % 5;
      tools = [...tools];
      if (kind === 0) tools[at] = { ...tools[at], description: `Edited ${serial}.` };
      else if (kind === 1) tools.splice(at, 1);
      else if (kind === 2) tools.splice(at, 0, { ...tools[at], name: `inserted_${serial}` });
      // A name that is an array index comes first among the token counts' keys: they are not chunked then.
      else if (kind === 3) tools[at] = { ...tools[at], name: serial === 23 ? "42" : `renamed_${serial}` };
      // An import's run of tools edited in place.
      else for (let index = at; index < at + 20; index++) tools[index] = { ...tools[index], description: `Imported ${serial}.` };
      state = freezeCatalogState({ ...state, tools }, state);
      const chunksBefore = bodies.cached().chunks;
      const list = computeToolList(state, request);
      const head = { serial };
      expect(decode(bodies.parts(head, list)), `edit ${serial} (${kind})`).toBe(JSON.stringify(toolListResponse(head, list)));
      // A change to one tool makes the chunks around it again in each of the three sections (one may split in two), no more.
      if (kind < 4 && serial < 23) expect(bodies.cached().chunks - chunksBefore, `edit ${serial} (${kind})`).toBeLessThanOrEqual(6);
    }
  });

  it("of the 8 combinations taking turns, each several revisions behind, are the bytes of JSON.stringify whether a chunk is spliced, shared or cut again", () => {
    const random = seededRandom(11);
    const bodies = new ToolListBodies(TOOL_LIST_BODY_CACHE_BYTES);
    let tools = catalogTools(8 * ITEMS_PER_CHUNK);
    let state = catalogState(tools);
    for (const request of COMBINATIONS) bodies.parts({}, computeToolList(state, request));
    for (let serial = 0; serial < 64; serial++) {
      const at = Math.floor(random() * (tools.length - 4));
      tools = [...tools];
      // Mostly edits in place, as a team's are, some two tools apart, with text beyond ASCII; now and then a rename or an insertion.
      if (serial % 7 === 3) tools[at] = { ...tools[at], name: `renamed_${serial}` };
      else if (serial % 7 === 5) tools.splice(at, 0, { ...tools[at], name: `inserted_${serial}` });
      else for (const index of serial % 2 === 0 ? [at] : [at, at + 2]) tools[index] = { ...tools[index], description: `Édité ${serial} — ✓.` };
      state = freezeCatalogState({ ...state, tools }, state);
      const request = { ...COMBINATIONS[serial % COMBINATIONS.length], format: PROVIDER_FORMATS[serial % PROVIDER_FORMATS.length] };
      const list = computeToolList(state, request);
      expect(decode(bodies.parts({ serial }, list)), `edit ${serial}`).toBe(JSON.stringify(toolListResponse({ serial }, list)));
    }
  });

  it("build a shared run again when a consumer transferred its buffer", () => {
    const state = catalogState();
    const bodies = new ToolListBodies(TOOL_LIST_BODY_CACHE_BYTES);
    const list = computeToolList(state, COMBINATIONS[0]);
    const expected = JSON.stringify(toolListResponse({}, list));
    const [, , second] = bodies.parts({}, list);
    structuredClone(second, { transfer: [second.buffer] });
    expect(second.buffer.byteLength).toBe(0);
    expect(decode(bodies.parts({}, list))).toBe(expected);
  });
});
