import { z } from "zod";
import { ToolshedError } from "../errors";
import { computeToolList, type CatalogState } from "../pipeline/tool-list";
import { catalogCorpus } from "./candidates";
import { indexKeyFor, preselect } from "./preselect";
import type { Selector } from "./selector";
import { runToolSearch } from "./tool-search";
import type { TurnToolEntry } from "./turn";
import type { RankedTool } from "./types";
import { registryView, rejectionReason, type Rejection, type RegistryView } from "./verify";

/** What replay needs of a recorded decision (the decision log's row, without storage details). */
export interface RecordedDecision {
  id: string;
  catalogId: string;
  revision: number;
  kind: "preselect" | "tool-search";
  path: "preselect" | "exact" | "semantic";
  model: string;
  agent: string;
  mode: string | null;
  flags: string[];
  input: unknown;
  selector: string | null;
  fallback: { from: string; cause: string } | null;
  raw: unknown;
  result: unknown;
  rejected: Rejection[];
}

/** One side of a replay: what the decision chose (before) or would choose now (after). */
export interface DecisionOutcome {
  revision: number;
  path: "preselect" | "exact" | "semantic";
  selector: string | null;
  fallback: { from: string; cause: string } | null;
  /** Selected (preselection) or found (ToolSearch) names, best first. */
  names: string[];
  /** Preselection only: the selected tools with their scores. */
  scores: RankedTool[] | null;
  /** Preselection only: the turn's tool set by origin. */
  toolSet: TurnToolEntry[] | null;
  /** Preselection only: base and history tools left out of the tool set because they were not visible. */
  dropped: Rejection[] | null;
  /** ToolSearch only: the names asked for (exact) or returned by the selector (semantic), before verification. */
  requested: string[] | null;
  rejected: Rejection[];
  raw: unknown;
}

export interface ScoreChange {
  name: string;
  before: number;
  after: number;
}

export interface NewRejection extends Rejection {
  /** The reason it was rejected before, when it was rejected then for another reason. */
  previousReason?: string;
}

export interface ReplayDiff {
  /** Names selected or found now that were not before. */
  added: string[];
  /** Names selected or found before that are not now. */
  removed: string[];
  /** Names rejected (or, for preselection, dropped from the tool set) now that were not, or not for this reason, before. */
  rejected: NewRejection[];
  /** Preselection: names selected both times whose score moved. */
  scoreChanges: ScoreChange[];
}

export interface ReplayResult {
  before: DecisionOutcome;
  after: DecisionOutcome & { latencyMs: number };
  diff: ReplayDiff;
}

const SCORE_EPSILON = 1e-9;

const message = z.object({ role: z.enum(["user", "assistant", "system", "tool"]), content: z.string() });
const preselectInput = z.object({
  messages: z.array(message),
  k: z.number().int().positive().nullish(),
  history: z.array(z.string()).default([]),
  provider: z.string().nullish(),
});
const toolSearchInput = z.object({
  query: z.string(),
  maxResults: z.number().int().positive().nullish(),
  messages: z.array(message).default([]),
  provider: z.string().nullish(),
});
const preselectResult = z.object({
  selected: z.array(z.object({ name: z.string(), score: z.number() })),
  toolSet: z.array(z.object({ name: z.string(), origin: z.enum(["base", "preselected", "history", "entry"]) })).default([]),
  // Decisions recorded before dropped tools were kept apart have them among the rejections.
  dropped: z.array(z.object({ name: z.string(), reason: z.string() })).default([]),
});
const toolSearchResult = z.object({ requested: z.array(z.string()).default([]), tools: z.array(z.string()) });

function parseRecorded<T>(schema: z.ZodType<T>, value: unknown, decision: RecordedDecision, what: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new ToolshedError("conflict", `Decision "${decision.id}" cannot be replayed: its recorded ${what} is not in the expected shape.`, what);
}

/** The recorded side of a decision, read from the log. */
export function recordedOutcome(decision: RecordedDecision): DecisionOutcome {
  const common = {
    revision: decision.revision,
    path: decision.path,
    selector: decision.selector,
    fallback: decision.fallback ?? null,
    rejected: decision.rejected,
    raw: decision.raw,
  };
  if (decision.kind === "preselect") {
    const result = parseRecorded(preselectResult, decision.result, decision, "result");
    return {
      ...common,
      names: result.selected.map((tool) => tool.name),
      scores: result.selected,
      toolSet: result.toolSet,
      dropped: result.dropped,
      requested: null,
    };
  }
  const result = parseRecorded(toolSearchResult, decision.result, decision, "result");
  return { ...common, names: result.tools, scores: null, toolSet: null, dropped: null, requested: result.requested };
}

/**
 * What changed between two outcomes of the same input. A name no longer selected or found that the
 * registry now turns away (disabled, deleted, hidden from this model or agent) is reported as newly
 * rejected even when the selector never named it, because the pipeline took it out of the candidates.
 */
export function diffOutcomes(before: DecisionOutcome, after: DecisionOutcome, reasonNow?: (name: string) => string | undefined): ReplayDiff {
  const beforeNames = new Set(before.names);
  const afterNames = new Set(after.names);
  const added = after.names.filter((name) => !beforeNames.has(name));
  const removed = before.names.filter((name) => !afterNames.has(name));

  const previous = new Map([...before.rejected, ...(before.dropped ?? [])].map((entry) => [entry.name, entry.reason]));
  const rejected: NewRejection[] = [];
  const seen = new Set<string>();
  const reject = (name: string, reason: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    const previousReason = previous.get(name);
    if (previousReason === reason) return;
    rejected.push(previousReason === undefined ? { name, reason } : { name, reason, previousReason });
  };
  for (const entry of [...after.rejected, ...(after.dropped ?? [])]) reject(entry.name, entry.reason);
  if (reasonNow) {
    for (const name of removed) {
      const reason = reasonNow(name);
      if (reason !== undefined) reject(name, reason);
    }
  }

  const scoreChanges: ScoreChange[] = [];
  if (before.scores && after.scores) {
    const afterScores = new Map(after.scores.map((tool) => [tool.name, tool.score]));
    for (const tool of before.scores) {
      const now = afterScores.get(tool.name);
      if (now !== undefined && Math.abs(now - tool.score) > SCORE_EPSILON) scoreChanges.push({ name: tool.name, before: tool.score, after: now });
    }
  }
  return { added, removed, rejected, scoreChanges };
}

/**
 * Re-runs a recorded decision's input against the catalog as it is now (optionally with another
 * selector) and compares. Nothing is written: the conversation's history is the one recorded with
 * the decision, and no new decision is logged.
 */
export async function replayDecision(input: {
  decision: RecordedDecision;
  state: CatalogState & { revision: number };
  selector: Selector;
  now?: () => number;
}): Promise<ReplayResult> {
  const { decision, state, selector } = input;
  if (decision.catalogId !== state.catalogId) {
    throw new ToolshedError("bad_request", `Decision "${decision.id}" belongs to catalog "${decision.catalogId}", not "${state.catalogId}".`, "catalog");
  }
  const before = recordedOutcome(decision);
  const now = input.now ?? performance.now.bind(performance);

  let after: ReplayResult["after"];
  let view: RegistryView;
  if (decision.kind === "preselect") {
    const recorded = parseRecorded(preselectInput, decision.input, decision, "input");
    const request = pipelineRequest(decision, recorded.provider);
    const result = await preselect({
      state,
      revision: state.revision,
      request,
      messages: recorded.messages,
      history: recorded.history,
      k: recorded.k ?? undefined,
      selector,
      now,
    });
    view = result.view;
    after = {
      revision: state.revision,
      path: "preselect",
      selector: result.selection.selector,
      fallback: result.selection.fallback ?? null,
      names: result.selected.map((tool) => tool.name),
      scores: result.selected,
      toolSet: result.toolSet,
      dropped: result.dropped,
      requested: null,
      rejected: result.rejected,
      raw: result.selection.raw,
      latencyMs: result.latencyMs,
    };
  } else {
    const recorded = parseRecorded(toolSearchInput, decision.input, decision, "input");
    const request = pipelineRequest(decision, recorded.provider);
    view = registryView(state.tools, computeToolList(state, { ...request, format: "ai-sdk" }));
    const result = await runToolSearch({
      query: recorded.query,
      maxResults: recorded.maxResults ?? undefined,
      view,
      selector,
      messages: recorded.messages,
      indexKey: `${indexKeyFor(state.catalogId, state.revision, request)}:search`,
      corpus: catalogCorpus(state.catalogId, state.revision, state.tools),
      now,
    });
    after = {
      revision: state.revision,
      path: result.path,
      selector: result.selection?.selector ?? null,
      fallback: result.selection?.fallback ?? null,
      names: result.tools.map((tool) => tool.name),
      scores: null,
      toolSet: null,
      dropped: null,
      requested: result.requested,
      rejected: result.rejected,
      raw: result.selection?.raw ?? result.requested,
      latencyMs: result.latencyMs,
    };
  }
  return { before, after, diff: diffOutcomes(before, after, (name) => rejectionReason(name, view)) };
}

function pipelineRequest(decision: RecordedDecision, provider: string | null | undefined) {
  return {
    model: decision.model,
    agent: decision.agent,
    provider: provider ?? undefined,
    mode: decision.mode ?? undefined,
    flags: decision.flags,
  };
}
