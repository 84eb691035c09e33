import { z } from "zod";
import { ToolshedError } from "../errors";
import { catalogDefinitionDigest, checkCall } from "../gateway/call-check";
import { computeToolList, type CatalogState } from "../pipeline/tool-list";
import { catalogCorpus } from "./candidates";
import { indexKeyFor, preselect } from "./preselect";
import type { Selector } from "./selector";
import { runToolSearch } from "./tool-search";
import type { TurnToolEntry } from "./turn";
import type { DecisionKind, DecisionPath, RankedTool } from "./types";
import { registryView, rejectionReason, type Rejection, type RegistryView } from "./verify";

/** What replay needs of a recorded decision (the decision log's row, without storage details). */
export interface RecordedDecision {
  id: string;
  catalogId: string;
  revision: number;
  kind: DecisionKind;
  path: DecisionPath;
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

/** A gateway call's side of a replay: what happened to the call (before), or whether the gateway would let it through now (after). */
export interface CallOutcome {
  tool: string;
  /** Before: ok, error or refused; after: allowed or refused. */
  outcome: "ok" | "error" | "refused" | "allowed";
  reason: string | null;
  /** Whether the agent must ask the user before each call of the tool. */
  needsApproval: boolean;
  /** Before: how the user answered when asked (null when nobody was); after: always null. */
  approval: "accepted" | "declined" | "cancelled" | "unavailable" | null;
  /** The tool's definition then and now (pinning.ts); null for a name the catalog does not hold. */
  definitionDigest: string | null;
}

/** One side of a replay: what the decision chose (before) or would choose now (after). */
export interface DecisionOutcome {
  revision: number;
  path: RecordedDecision["path"];
  selector: string | null;
  fallback: { from: string; cause: string } | null;
  /** Selected (preselection) or found (ToolSearch) names, best first; a call: its tool, when it was (or would be) let through. */
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
  /** Gateway calls only. */
  call: CallOutcome | null;
}

interface ScoreChange {
  name: string;
  before: number;
  after: number;
}

interface NewRejection extends Rejection {
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
  /** Gateway calls: whether the tool's definition, or the need to ask the user, changed since the call. */
  call: { definitionChanged: boolean; approvalChanged: boolean } | null;
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
const callInput = z.object({ tool: z.string(), definitionDigest: z.string().nullable(), provider: z.string().nullish() });
const callResult = z.object({
  outcome: z.enum(["ok", "error", "refused"]),
  reason: z.string().nullable(),
  needsApproval: z.boolean(),
  approval: z.enum(["accepted", "declined", "cancelled", "unavailable"]).nullable(),
});

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
    call: null,
  };
  if (decision.kind === "call") {
    const { tool, definitionDigest } = parseRecorded(callInput, decision.input, decision, "input");
    const result = parseRecorded(callResult, decision.result, decision, "result");
    return {
      ...common,
      names: result.outcome === "refused" ? [] : [tool],
      scores: null,
      toolSet: null,
      dropped: null,
      requested: [tool],
      call: { tool, ...result, definitionDigest },
    };
  }
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
  const call =
    before.call && after.call
      ? {
          definitionChanged: before.call.definitionDigest !== after.call.definitionDigest,
          approvalChanged: before.call.needsApproval !== after.call.needsApproval,
        }
      : null;
  return { added, removed, rejected, scoreChanges, call };
}

/**
 * Would the gateway let a recorded call through now? The same check the gateway makes at call
 * time (lib/gateway/call-check.ts), against today's catalog and what the session has found by now.
 */
function replayCall(decision: RecordedDecision, state: CatalogState & { revision: number }, now: () => number): ReplayResult {
  const before = recordedOutcome(decision);
  const started = now();
  const recorded = parseRecorded(callInput, decision.input, decision, "input");
  const tool = recorded.tool;
  const request = pipelineRequest(decision, recorded.provider);
  const view = registryView(state.tools, computeToolList(state, { ...request, format: "ai-sdk" }));
  const check = checkCall(tool, view);
  const reason = check.allowed ? null : check.reason;
  const after: ReplayResult["after"] = {
    revision: state.revision,
    path: "call",
    selector: null,
    fallback: null,
    names: check.allowed ? [tool] : [],
    scores: null,
    toolSet: null,
    dropped: null,
    requested: [tool],
    rejected: reason === null ? [] : [{ name: tool, reason }],
    raw: null,
    call: {
      tool,
      outcome: check.allowed ? "allowed" : "refused",
      reason,
      needsApproval: view.visible.get(tool)?.needsApproval ?? false,
      approval: null,
      definitionDigest: catalogDefinitionDigest(tool, view),
    },
    latencyMs: now() - started,
  };
  return { before, after, diff: diffOutcomes(before, after) };
}

/**
 * Re-runs a recorded decision's input against the catalog as it is now (optionally with another
 * selector) and compares. Nothing is written: the conversation's history is the one recorded with
 * the decision, and no new decision is logged. A gateway call is checked as the gateway checks one
 * now: whether the pipeline lets its model and agent use the tool.
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
  const now = input.now ?? performance.now.bind(performance);
  if (decision.kind === "call") return replayCall(decision, state, now);
  const before = recordedOutcome(decision);

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
      call: null,
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
      call: null,
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
