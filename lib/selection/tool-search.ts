import { toolEdits } from "../pipeline/tool-edits";
import type { FinalTool } from "../pipeline/types";
import { Lru } from "../tools/lru";
import { patchedCandidates, toCandidates } from "./candidates";
import { NameIndex } from "./name-index";
import type { SelectionCorpus, Selector, SelectionLearning, SelectionOutput } from "./selector";
import type { ConversationMessage, SelectorCandidate } from "./types";
import { verifyNames, viewLineage, type Rejection, type RegistryView } from "./verify";

export const TOOL_SEARCH_DEFAULT_RESULTS = 5;
const SELECT_PREFIX = /^select:/i;

type ToolSearchPath = "exact" | "semantic";

export interface ToolSearchResult {
  path: ToolSearchPath;
  /** The names asked for (exact) or returned by the selector (semantic), before verification. */
  requested: string[];
  /** Visible tools with their full definitions, best first. */
  tools: FinalTool[];
  rejected: Rejection[];
  /** The selector's run, for the decision log; absent on the exact path, which calls no model. */
  selection?: SelectionOutput;
  latencyMs: number;
}

/** The names an exact query asks for: "select:a,b", or a query that is exactly one catalog tool name. */
export function exactNames(query: string, view: RegistryView): string[] | undefined {
  const trimmed = query.trim();
  if (SELECT_PREFIX.test(trimmed)) {
    return [
      ...new Set(
        trimmed
          .replace(SELECT_PREFIX, "")
          .split(",")
          .map((name) => name.trim())
          .filter(Boolean),
      ),
    ];
  }
  return view.all.has(trimmed) ? [trimmed] : undefined;
}

// The visible tools as candidates, once per view (views are shared while their tool list is); for
// a shared view, made from the latest of the same catalog and request: only the changed tools'
// candidates are made, and the others are the same objects as before.
const viewCandidates = new WeakMap<RegistryView, readonly SelectorCandidate[]>();
const latestCandidates = new Lru<string, { visible: readonly FinalTool[]; candidates: readonly SelectorCandidate[] }>({ maxEntries: 64 });

function candidatesOf(view: RegistryView): SelectorCandidate[] {
  let candidates = viewCandidates.get(view);
  if (candidates === undefined) {
    const visible = view.visible instanceof NameIndex ? view.visible.valueList() : [...view.visible.values()];
    const lineage = viewLineage(view);
    const earlier = lineage === undefined ? undefined : latestCandidates.get(lineage);
    const edits = earlier && toolEdits(earlier.visible, visible, visible.length / 4);
    candidates = edits ? patchedCandidates(earlier!.candidates, edits) : Object.freeze(toCandidates(visible));
    viewCandidates.set(view, candidates);
    if (lineage !== undefined) latestCandidates.set(lineage, { visible, candidates });
  }
  return candidates as SelectorCandidate[];
}

/**
 * ToolSearch: exact names are resolved locally with no model call; anything else goes to the
 * auxiliary selector over the visible tools. Either way every name is checked against the registry
 * and the pipeline before it is returned.
 */
export async function runToolSearch(input: {
  query: string;
  maxResults?: number;
  view: RegistryView;
  selector: Selector;
  messages: ConversationMessage[];
  indexKey: string;
  /** The catalog the visible tools come from, for a selector that indexes it once (see SelectionInput). */
  corpus?: SelectionCorpus;
  /** What the catalog learned from use, for a selector that adds it (the local one). */
  learning?: SelectionLearning;
  now?: () => number;
}): Promise<ToolSearchResult> {
  const now = input.now ?? performance.now.bind(performance);
  const started = now();
  const maxResults = input.maxResults ?? TOOL_SEARCH_DEFAULT_RESULTS;
  const exact = exactNames(input.query, input.view);
  if (exact) {
    const { passed, rejected } = verifyNames(exact, input.view);
    return { path: "exact", requested: exact, tools: passed.slice(0, Math.max(maxResults, exact.length)), rejected, latencyMs: now() - started };
  }
  const selection = await input.selector.select({
    candidates: candidatesOf(input.view),
    messages: [...input.messages, { role: "user", content: input.query }],
    k: maxResults,
    indexKey: input.indexKey,
    corpus: input.corpus,
    learning: input.learning,
  });
  const requested = [...selection.ranked.map((tool) => tool.name), ...selection.invented];
  const { passed, rejected } = verifyNames(requested, input.view);
  return { path: "semantic", requested, tools: passed.slice(0, maxResults), rejected, selection, latencyMs: now() - started };
}
