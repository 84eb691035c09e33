import { aggregate } from "../pipeline/aggregate";
import type { SelectionOutput } from "../selection/selector";
import { heldBackReason } from "../tools/pinning";
import type { Tool } from "../tools/types";
import type { LabelledCase } from "./cases";
import { evaluationMetrics, qualityFigures, type EvaluationMetric } from "./metrics";

/** The ranking is read this deep whatever k is, so recall@10 and nDCG@10 always mean the same. */
const METRIC_DEPTH = 10;

export const DEFAULT_EVALUATION_K = 10;

/** A tool of a miss, as the Evaluate page shows it. */
export interface MissTool {
  name: string;
  /** Position in the ranking (1 = first), or null when the selector did not rank it. */
  rank: number | null;
  score: number | null;
  summary: string;
  /** Why the selector could not rank it, when the catalog did not offer it: "disabled", "held back for review"… */
  notOffered?: string;
}

/** A case whose expected tools were not all among the first k chosen. */
export interface EvaluationMiss {
  /** The case's position in the run. */
  case: number;
  id?: string;
  query: string;
  expected: MissTool[];
  chosen: MissTool[];
}

export interface EvaluationOutcome {
  metrics: Record<EvaluationMetric, number>;
  misses: EvaluationMiss[];
  /** Per case, the names chosen (the first k). */
  chosen: string[][];
  /** Cases a model selector failed on, answered by the local selector instead. */
  fallbacks: number;
}

/**
 * Why the catalog does not offer a tool to any selector, in the words a miss shows: it is
 * disabled, held back until an editor approves its server's new definition, or its source no
 * longer lists it (or cannot be reached). Undefined for an offered tool.
 */
export function notOfferedReason(tool: Pick<Tool, "enabled" | "registered" | "heldBack" | "unavailableHere">): string | undefined {
  if (!tool.enabled) return "disabled";
  if (tool.heldBack) return heldBackReason(tool.heldBack);
  if (tool.unavailableHere) return "its MCP server cannot be reached";
  if (!tool.registered) return "not registered: its source no longer lists it";
  return undefined;
}

/** What a run reads of a catalog: the tools it ranks, and what a miss says of each of the catalog's tools. */
export interface EvaluationCatalog {
  offered: Tool[];
  /** Why each tool not offered is not (see notOfferedReason). */
  notOffered: Map<string, string>;
  /** Each tool's summary, but none of a held-back tool: its text is the one no editor approved. */
  summaries: Map<string, string>;
}

/**
 * The catalog as a run sees it: it ranks exactly the tools the tool-list pipeline's first stage
 * (aggregate) keeps for any agent, so a disabled, unregistered or held-back tool is never ranked,
 * and a held-back tool's unapproved text is never shown either.
 */
export function evaluationCatalog(tools: readonly Tool[]): EvaluationCatalog {
  const { tools: offered, removed } = aggregate(tools);
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const notOffered = new Map(removed.map(({ name, reason }) => [name, notOfferedReason(byName.get(name)!) ?? reason]));
  const summaries = new Map(tools.filter((tool) => !tool.heldBack).map((tool) => [tool.name, tool.summary]));
  return { offered, notOffered, summaries };
}

/** Yields to the event loop between cases: the local selector answers without awaiting anything. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Runs each case through a selector and scores it: recall@1/5/10 and nDCG@10 over the ranking
 * (read to depth max(k, 10)), a miss for every case with an expected tool outside the first k.
 */
export async function evaluateCases(
  cases: readonly LabelledCase[],
  options: {
    k: number;
    select: (query: string, depth: number) => Promise<SelectionOutput>;
    summaryOf: (name: string) => string;
    /** Why a tool is not among the candidates at all (undefined when it is one). */
    notOfferedBecause?: (name: string) => string | undefined;
    onProgress?: (done: number) => void | Promise<void>;
  },
): Promise<EvaluationOutcome> {
  const depth = Math.max(options.k, METRIC_DEPTH);
  const rankings: { ranked: string[]; expected: string[] }[] = [];
  const misses: EvaluationMiss[] = [];
  const chosen: string[][] = [];
  let fallbacks = 0;
  for (const [index, labelled] of cases.entries()) {
    const output = await options.select(labelled.query, depth);
    if (output.fallback) fallbacks++;
    const ranked = output.ranked.map((tool) => tool.name);
    rankings.push({ ranked, expected: labelled.expected });
    const top = new Set(ranked.slice(0, options.k));
    chosen.push([...top]);
    if (labelled.expected.some((name) => !top.has(name))) {
      const describe = (name: string): MissTool => {
        const position = ranked.indexOf(name);
        const notOffered = position === -1 ? options.notOfferedBecause?.(name) : undefined;
        return {
          name,
          rank: position === -1 ? null : position + 1,
          score: position === -1 ? null : output.ranked[position].score,
          summary: options.summaryOf(name),
          ...(notOffered ? { notOffered } : {}),
        };
      };
      misses.push({
        case: index,
        ...(labelled.id === undefined ? {} : { id: labelled.id }),
        query: labelled.query,
        expected: labelled.expected.map(describe),
        chosen: [...top].map(describe),
      });
    }
    await options.onProgress?.(index + 1);
    await nextTurn();
  }
  return { metrics: evaluationMetrics(qualityFigures(rankings)), misses, chosen, fallbacks };
}
