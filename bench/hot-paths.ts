/**
 * `npx tsx bench/hot-paths.ts [--sizes 10000,50000] [--requests 200]`
 *
 * The three hot routes in-process, HTTP excluded, the way app/_services calls lib: tool-list
 * (computeToolList plus the JSON body the route sends), preselect (local selector, k = 10) and a
 * semantic ToolSearch, on a catalog of synthetic tools with realistic schemas (the shape
 * bench/http.ts imports), the shipped rules and agents plus a file subagent and a plugin hook,
 * with 8 model/agent combinations rotating. "First" is the first request of each route on a new
 * catalog state (a new revision): what a write costs the next caller. Also the retained heap of
 * the state with everything cached from it, the full tool-list bodies of the 8 combinations
 * (the heap they hold, and the time to answer each: kept per list whole, as before, against
 * what the route answers now), and schema validation per tool.
 */
import { createHash } from "node:crypto";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { spawnSync } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import * as toolListModule from "../lib/pipeline/tool-list";
import type { CatalogState } from "../lib/pipeline/tool-list";
import type { DefinitionHook } from "../lib/pipeline/types";
import { DEFAULT_AGENTS, type Agent } from "../lib/rules/agents";
import { DEFAULT_RULES } from "../lib/rules/catalog-rules";
import * as candidatesModule from "../lib/selection/candidates";
import { LocalIndexCache } from "../lib/selection/local";
import { createLocalSelector } from "../lib/selection/local-selector";
import { indexKeyFor, preselect } from "../lib/selection/preselect";
import type { SelectionCorpus } from "../lib/selection/selector";
import { runToolSearch } from "../lib/selection/tool-search";
import { registryView } from "../lib/selection/verify";
import { BUILTIN_TOOLS } from "../lib/tools/builtin";
import type { Tool } from "../lib/tools/types";
import { validateToolDraft } from "../lib/tools/validate";
import { percentile } from "./metrics";
import { seededRandom, syntheticCatalog, syntheticConversations, syntheticInputSchema } from "./synthetic";
import { fixed, markdownTable } from "./table";

export const HOT_PATH_SIZES = [10_000, 50_000] as const;
const COMBINATIONS = ["gpt-5", "gpt-4.1", "claude-sonnet-4-5", "gemini-2.5-pro"].flatMap((model) => ["build", "plan"].map((agent) => ({ model, agent })));

// Exposes V8's collector without a command-line flag, so the heap figure is after a full collection.
setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

// Present only in the tree that caches; the bench also runs unchanged against the one before.
const freezeState: <S extends CatalogState>(state: S) => S =
  (toolListModule as { freezeCatalogState?: <S extends CatalogState>(state: S) => S }).freezeCatalogState ?? ((state) => state);
const utf8 = new TextEncoder();
// Absent from the tree before the caches; the bench also runs there, unchanged.
const bodyModule: object = await import("../lib/pipeline/tool-list-body").catch(() => ({}));
// What the route answers today (app/api/catalogs/[catalog]/tool-list/route.ts builds this object).
const toolListResponseOf =
  (bodyModule as { toolListResponse?: (head: Record<string, unknown>, list: toolListModule.ToolList) => unknown }).toolListResponse ??
  ((head: Record<string, unknown>, list: toolListModule.ToolList) => ({
    ...head,
    tools: list.tools,
    annotations: list.final.map(({ name, source, needsApproval }) => ({ name, source, needsApproval })),
    trace: list.trace,
    tokens: list.tokens,
  }));
const bodyParts = (bodyModule as { toolListBodyParts?: (head: Record<string, unknown>, list: toolListModule.ToolList) => Uint8Array[] }).toolListBodyParts;
type BodyHead = Record<string, unknown>;
const { toolListBodyStream, toolListEntityTag } = bodyModule as {
  toolListBodyStream?: (head: BodyHead, list: toolListModule.ToolList) => ReadableStream<Uint8Array>;
  toolListEntityTag?: (head: BodyHead, list: toolListModule.ToolList) => string;
};
const corpusOf = (candidatesModule as { catalogCorpus?: (id: string, revision: number, tools: readonly Tool[]) => SelectionCorpus }).catalogCorpus;

/** Tools as the registry holds them after an import of the synthetic catalog (see bench/http.ts). */
export function hotPathTools(count: number): Tool[] {
  const random = seededRandom(count);
  const imported = syntheticCatalog(Math.max(0, count - BUILTIN_TOOLS.length)).map(
    (tool): Tool => ({
      name: tool.name,
      summary: tool.summary,
      description: `${tool.summary} ${tool.description}`,
      inputSchema: syntheticInputSchema(random, tool.parameterNames ?? []),
      source: "custom",
      enabled: true,
      registered: true,
      tags: [],
      requires: {},
    }),
  );
  const builtins = BUILTIN_TOOLS.map((tool): Tool => ({ ...tool, tags: [...tool.tags], source: "builtin", enabled: true, registered: true }));
  return [...builtins, ...imported];
}

/** The example plugin's hook (plugins/example-plugin.mjs): a note on bash for GPT models. */
const bashNote: DefinitionHook = (tool, ctx) =>
  tool.name === "bash" && /(^|\/)gpt-/i.test(ctx.modelId) ? { description: `${tool.description}\n\nNote: prefer the workdir parameter.` } : undefined;

const reviewer: Agent = {
  name: "reviewer",
  mode: "subagent",
  description: "Read-only code reviewer.",
  permissions: [
    { pattern: "*", action: "allow" },
    { pattern: "edit", action: "deny" },
    { pattern: "bash", action: "deny" },
  ],
  baseTools: ["read", "grep", "glob"],
};

/** A new catalog state, as app/_services/sources.ts builds one after each write. */
function stateOf(tools: Tool[], revision: number): CatalogState & { revision: number } {
  return freezeState({
    catalogId: "bench",
    revision,
    tools: [...tools],
    rules: DEFAULT_RULES,
    agents: [...DEFAULT_AGENTS, reviewer],
    definitionHooks: [bashNote],
  });
}

interface Route {
  label: string;
  run: (state: CatalogState & { revision: number }, index: number) => Promise<unknown>;
}

function routes(selector: ReturnType<typeof createLocalSelector>): Route[] {
  const conversations = syntheticConversations(64);
  const combination = (index: number) => COMBINATIONS[index % COMBINATIONS.length];
  return [
    {
      label: "tool-list, body as the route makes it today (Response.json: stringify, UTF-8)",
      run: async (state, index) => {
        const request = combination(index);
        const list = toolListModule.computeToolList(state, request);
        const head = { catalog: state.catalogId, revision: state.revision, ...request, provider: list.provider ?? null, mode: list.mode, format: list.format };
        return utf8.encode(JSON.stringify(toolListResponseOf(head, list))).length;
      },
    },
    ...(bodyParts
      ? [
          {
            label: "tool-list, body from toolListBodyParts",
            run: async (state: CatalogState & { revision: number }, index: number) => {
              const request = combination(index);
              const list = toolListModule.computeToolList(state, request);
              const head = {
                catalog: state.catalogId,
                revision: state.revision,
                ...request,
                provider: list.provider ?? null,
                mode: list.mode,
                format: list.format,
              };
              return bodyParts(head, list).reduce((sum, part) => sum + part.length, 0);
            },
          },
        ]
      : []),
    {
      label: "preselect (local, k = 10)",
      run: (state, index) =>
        preselect({
          state,
          revision: state.revision,
          request: combination(index),
          messages: conversations[index % conversations.length],
          history: [],
          k: 10,
          selector,
        }),
    },
    {
      label: "tool-search (semantic, local)",
      run: async (state, index) => {
        const request = combination(index);
        const view = registryView(state.tools, toolListModule.computeToolList(state, { ...request, format: "ai-sdk" }));
        return runToolSearch({
          query: conversations[index % conversations.length].at(-1)!.content,
          view,
          selector,
          messages: [],
          indexKey: `${indexKeyFor(state.catalogId, state.revision, request)}:search`,
          corpus: corpusOf?.(state.catalogId, state.revision, state.tools),
        });
      },
    },
  ];
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

/** After full collections, until the figure settles: ArrayBuffers (byte bodies) are freed after their objects, and not at once. */
async function heapMegabytes(): Promise<number> {
  let previous = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 10; round++) {
    collectGarbage();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const { heapUsed, arrayBuffers } = process.memoryUsage();
    const megabytes = (heapUsed + arrayBuffers) / (1024 * 1024);
    if (megabytes > previous - 1) return megabytes;
    previous = megabytes;
  }
  return previous;
}

interface SizeFigures {
  size: number;
  rows: (string | number)[][];
  heapMb: number;
  bodyRows: (string | number)[][];
}

/** A body answered: its entity tag, then its chunks, each copied out as a socket write copies it. */
interface BodyAnswer {
  label: string;
  answer: (head: BodyHead, list: toolListModule.ToolList) => Promise<number>;
  /** Drops what the answer keeps, so the next one is measured alone. */
  forget: () => void;
}

const socketBuffer = Buffer.alloc(64 * 1024);

async function drain(stream: ReadableStream<Uint8Array>): Promise<number> {
  const reader = stream.getReader();
  let length = 0;
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    for (let offset = 0; offset < chunk.value.length; offset += socketBuffer.length) {
      socketBuffer.set(chunk.value.subarray(offset, offset + socketBuffer.length));
    }
    length += chunk.value.length;
  }
  return length;
}

/** The list's part of the body kept whole per list, as lib/pipeline/tool-list-body.ts did before it shared the tools' bytes. */
function wholeBodyPerList(): BodyAnswer {
  const kept = new Map<toolListModule.ToolList, { bytes: Uint8Array; digest: string }>();
  return {
    label: "kept whole per list (the cache before, rebuilt here)",
    answer: async (head, list) => {
      let tail = kept.get(list);
      if (tail === undefined) {
        const bytes = utf8.encode(JSON.stringify(toolListResponseOf({}, list)).slice(1));
        tail = { bytes, digest: createHash("sha256").update(bytes).digest("base64url") };
        kept.set(list, tail);
      }
      const headJson = JSON.stringify(head);
      createHash("sha256").update(headJson).update(tail.digest).digest("base64url");
      const parts = [utf8.encode(`${headJson.slice(0, -1)},`), tail.bytes];
      return drain(
        new ReadableStream<Uint8Array>({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      );
    },
    forget: () => kept.clear(),
  };
}

function routeBody(): BodyAnswer[] {
  if (!toolListBodyStream || !toolListEntityTag) return [];
  return [
    {
      label: "as the route answers (toolListEntityTag, toolListBodyStream)",
      answer: async (head, list) => {
        toolListEntityTag(head, list);
        return drain(toolListBodyStream(head, list));
      },
      forget: () => {},
    },
  ];
}

/**
 * The full tool-list bodies of the 8 combinations one way, on a new revision whose lists are
 * already computed: the heap the 8 bodies hold (after GC), the first answer of each combination,
 * then answers with the combinations rotating. A function of its own, so that nothing of one way
 * is still reachable while the next is measured.
 */
async function bodyRow(size: number, state: CatalogState & { revision: number }, way: BodyAnswer, requests: number): Promise<(string | number)[]> {
  const lists = COMBINATIONS.map((request) => toolListModule.computeToolList(state, request));
  const heads = lists.map((list, index) => ({
    catalog: state.catalogId,
    revision: state.revision,
    ...COMBINATIONS[index],
    provider: list.provider ?? null,
    mode: list.mode,
    format: list.format,
  }));
  const before = await heapMegabytes();
  const firsts: number[] = [];
  let bodyBytes = 0;
  for (const [index, list] of lists.entries()) {
    const started = performance.now();
    bodyBytes = await way.answer(heads[index], list);
    firsts.push(performance.now() - started);
  }
  const heldMb = (await heapMegabytes()) - before;
  const samples: number[] = [];
  for (let index = 0; index < requests; index++) {
    const combination = index % COMBINATIONS.length;
    samples.push(await timed(() => way.answer(heads[combination], lists[combination])));
  }
  way.forget();
  return [
    size.toLocaleString("en-US"),
    way.label,
    fixed(bodyBytes / 1e6, 1),
    fixed(heldMb, 0),
    `${fixed(percentile(firsts, 50), 0)} / ${fixed(Math.max(...firsts), 0)}`,
    `${fixed(percentile(samples, 50), 2)} / ${fixed(percentile(samples, 95), 2)} / ${fixed(percentile(samples, 99), 2)}`,
  ];
}

async function measureBodies(size: number, tools: Tool[], requests: number): Promise<(string | number)[][]> {
  const rows: (string | number)[][] = [];
  const ways = [wholeBodyPerList(), ...routeBody()];
  for (const [position, way] of ways.entries()) rows.push(await bodyRow(size, stateOf(tools, 100 + position), way, requests));
  return rows;
}

async function measureSize(size: number, requests: number): Promise<SizeFigures> {
  const selector = createLocalSelector(new LocalIndexCache());
  const all = routes(selector);
  const tools = hotPathTools(size);
  // The bodies first, on a cache of bodies still empty, so none of their bytes are pushed out.
  const bodyRows = await measureBodies(size, tools, requests);
  // Then the memory one catalog revision keeps: its tools and state, with every list, view,
  // index, token count and body the 8 combinations make of it, measured in a fresh process.
  const baseline = await heapMegabytes();
  let state = stateOf(tools, 1);
  for (const route of all) for (let index = 0; index < COMBINATIONS.length; index++) await route.run(state, index);
  const heapMb = (await heapMegabytes()) - baseline;

  const rows: (string | number)[][] = [];
  for (const [position, route] of all.entries()) {
    // Each route starts on a new revision, so its first request pays for what that costs.
    state = stateOf(tools, 2 + position);
    const first = await timed(() => route.run(state, 0));
    for (let index = 1; index < COMBINATIONS.length; index++) await route.run(state, index);
    const samples: number[] = [];
    for (let index = 0; index < requests; index++) samples.push(await timed(() => route.run(state, index)));
    rows.push([
      size.toLocaleString("en-US"),
      route.label,
      fixed(percentile(samples, 50), 2),
      fixed(percentile(samples, 95), 2),
      fixed(percentile(samples, 99), 2),
      fixed(first, 0),
    ]);
  }
  return { size, rows, heapMb, bodyRows };
}

/** Schema validation per tool: distinct schemas the first time, then equal ones again (an import validates each twice, an MCP sync re-validates every minute). */
function validationRow(count: number): (string | number)[] {
  const drafts = hotPathTools(count)
    .filter((tool) => tool.source === "custom")
    .map((tool, index) => ({ ...tool, inputSchema: { ...tool.inputSchema, description: `Arguments of tool ${index}.` } }));
  const pass = (batch: typeof drafts) => {
    const started = performance.now();
    let problems = 0;
    for (const draft of batch) problems += validateToolDraft(draft).length;
    if (problems > 0) throw new Error(`bench schemas should be valid (${problems} problems)`);
    return (performance.now() - started) / drafts.length;
  };
  const first = pass(drafts);
  // Parsed again, as an MCP server's listing or a second import is: equal schemas, new objects.
  const again = pass(JSON.parse(JSON.stringify(drafts)) as typeof drafts);
  return [drafts.length.toLocaleString("en-US"), fixed(first * 1000, 1), fixed(again * 1000, 1)];
}

/** Each size in a process of its own, so neither timings nor the heap carry anything over. */
function measureInChild(size: number, requests: number | undefined): SizeFigures {
  const args = [...process.execArgv, fileURLToPath(import.meta.url), "--sizes", String(size), "--json"];
  if (requests !== undefined) args.push("--requests", String(requests));
  const child = spawnSync(process.execPath, args, { encoding: "utf8", maxBuffer: 16 * 1024 * 1024 });
  if (child.status !== 0) throw new Error(`hot-path bench for ${size} tools failed: ${child.stderr}`);
  return (JSON.parse(child.stdout) as SizeFigures[])[0];
}

export async function hotPathSection(sizes: readonly number[] = HOT_PATH_SIZES, requests?: number): Promise<string> {
  const results = sizes.map((size) => measureInChild(size, requests));
  const validation = validationRow(10_000);
  return [
    `Per size, in a fresh process: ${requests ?? "200 (10,000) / 100 (50,000)"} requests per route after one per combination, 8 model/agent combinations ` +
      "(gpt-5, gpt-4.1, claude-sonnet-4-5, gemini-2.5-pro × build, plan) rotating, concurrency 1; the shipped rules and agents, a file " +
      "subagent and the example plugin's hook. First = the first request on a new revision (definitions whose token counts are known by content, " +
      "as after a write that changed a few).",
    "",
    markdownTable(
      ["tools", "route", "p50 ms", "p95 ms", "p99 ms", "first ms"],
      results.flatMap((result) => result.rows),
    ),
    "",
    markdownTable(
      [
        "tools",
        "tool-list bodies of the 8 combinations",
        "body MB",
        "heap MB the 8 hold (after GC)",
        "first answer of each combination ms, median / max",
        "answers rotating, p50 / p95 / p99 ms",
      ],
      results.flatMap((result) => result.bodyRows),
    ),
    "",
    markdownTable(
      ["tools", "heap MB one revision keeps (tools, state and all cached from it for the 8 combinations, after GC)"],
      results.map((result) => [result.size.toLocaleString("en-US"), fixed(result.heapMb, 0)]),
    ),
    "",
    markdownTable(["schemas validated", "µs per tool, first time", "µs per tool, again"], [validation]),
  ].join("\n");
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { sizes: { type: "string" }, requests: { type: "string" }, json: { type: "boolean" } } });
  const sizes = values.sizes ? values.sizes.split(",").map(Number) : HOT_PATH_SIZES;
  const requests = values.requests ? Number(values.requests) : undefined;
  const work = values.json
    ? (async () => {
        const figures: SizeFigures[] = [];
        for (const size of sizes) figures.push(await measureSize(size, requests ?? (size > 20_000 ? 100 : 200)));
        return JSON.stringify(figures);
      })()
    : hotPathSection(sizes, requests);
  work
    .then((text) => console.log(text))
    .catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    });
}
