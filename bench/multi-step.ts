import { createLocalIndex } from "../lib/selection/local";
import type { SelectorCandidate } from "../lib/selection/types";
import { createClauseSplitBm25, interleave } from "./clauseBm25";
import { candidatesOf, type LabelledCase, type LabelledSet } from "./labelledSet";
import { qualityFigures } from "./metrics";
import { fixed, markdownTable } from "./table";

/** k of the preselection the issue measures (POST …/preselect with k = 10). */
const DEPTH = 10;
/** Instructions composed per group of sets. */
const INSTRUCTIONS = 300;

/** The ways an instruction joins its steps: the connectives issue 26 names. */
const JOINS: ((steps: string[]) => string)[] = [
  (steps) => `${steps.slice(0, -1).join(", then ")}, and finally ${steps.at(-1)}.`,
  (steps) =>
    `First ${steps[0]}. ${steps
      .slice(1, -1)
      .map((step) => `Next, ${step}.`)
      .join(" ")} Finally, ${steps.at(-1)}.`,
  (steps) => steps.map((step, index) => `${index + 1}) ${step}`).join(" "),
  (steps) => `${steps.join("; ")}.`,
  (steps) => (steps.length > 2 ? `${steps[0]} and ${steps[1]}, after that ${steps.slice(2).join(" and then ")}.` : `${steps[0]}, after that ${steps[1]}.`),
];

/** A request as a step of a longer instruction: no closing punctuation, no capital to open it. */
function asStep(query: string): string {
  const trimmed = query.trim().replace(/[.!?]+$/u, "");
  return trimmed.charAt(0).toLowerCase() + trimmed.slice(1);
}

/** The service a tool belongs to, by its name's first word, so that one instruction's steps use different services. */
const serviceOf = (tool: string) => tool.split(/[_.]/u)[0];

interface ComposedCase extends LabelledCase {
  /** The hand-written single-tool requests the instruction joins, one per expected tool. */
  steps: string[];
}

/** How instructions are composed: their number of steps, and whether a request may serve in several of them. */
export interface Composition {
  steps: readonly [min: number, max: number];
  /** Each request in one instruction at most (fewer instructions when they run out), as a report and a later request never share one. */
  once: boolean;
}

/**
 * Multi-step instructions composed of a set's hand-written single-tool requests (by default 3 or
 * 4 steps, each for a tool of another service, joined as JOINS does), so that each step is worded
 * as a user words it, not as a tool's description is. Deterministic for a seed.
 */
export function composeInstructions(
  cases: readonly LabelledCase[],
  count: number,
  seed = 7,
  { steps: [fewest, most], once }: Composition = { steps: [3, 4], once: false },
): ComposedCase[] {
  const singles = cases.filter((labelled) => labelled.expected.length === 1);
  const services = new Set(singles.map((labelled) => serviceOf(labelled.expected[0])));
  if (services.size < most) throw new Error(`Composing instructions needs single-tool requests for at least ${most} services.`);
  let state = seed;
  const random = () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
  const left = [...singles];
  const composed: ComposedCase[] = [];
  while (composed.length < count) {
    const length = fewest + Math.floor(random() * (most - fewest + 1));
    const pool = once ? left : singles;
    const chosen: LabelledCase[] = [];
    if (new Set(pool.map((labelled) => serviceOf(labelled.expected[0]))).size < length) break;
    while (chosen.length < length) {
      const at = Math.floor(random() * pool.length);
      const pick = pool[at];
      if (chosen.some((labelled) => serviceOf(labelled.expected[0]) === serviceOf(pick.expected[0]))) continue;
      chosen.push(pick);
      if (once) left.splice(at, 1);
    }
    const steps = chosen.map((labelled) => labelled.query);
    const index = composed.length;
    const query = steps.length === 1 ? steps[0] : JOINS[index % JOINS.length](steps.map(asStep));
    composed.push({ id: `composed-${index}`, query, expected: chosen.map((labelled) => labelled.expected[0]), steps });
  }
  return composed;
}

function figuresRow(label: string, cases: readonly ComposedCase[], search: (labelled: ComposedCase) => string[]): (string | number)[] {
  const results = cases.map((labelled) => ({ ranked: search(labelled), expected: labelled.expected }));
  const figures = qualityFigures(results);
  const complete = results.filter(({ ranked, expected }) => expected.every((tool) => ranked.slice(0, 5).includes(tool))).length;
  return [label, fixed(figures.recallAt1), fixed(figures.recallAt5), fixed(figures.recallAt10), fixed(complete / cases.length)];
}

/**
 * Multi-step instructions composed of hand-written requests: the local selector against the
 * clause-split peer, and the local ranker run on each true step alone with the steps' rankings
 * interleaved: what perfect splitting of the instruction would give the same ranker.
 */
export function multiStepSection(groups: readonly { label: string; sets: readonly LabelledSet[] }[]): string {
  const out: string[] = [];
  for (const { label, sets } of groups) {
    const tools = new Map<string, LabelledSet["tools"][number]>();
    for (const set of sets) for (const tool of set.tools) tools.set(tool.name, tool);
    const candidates: SelectorCandidate[] = candidatesOf({ tools: [...tools.values()], cases: [] });
    const cases = composeInstructions(
      sets.flatMap((set) => set.cases),
      INSTRUCTIONS,
    );
    const local = createLocalIndex(candidates);
    const peer = createClauseSplitBm25(candidates);
    const rank = (query: string) => local.rank([{ role: "user", content: query }], DEPTH).map((tool) => tool.name);
    const rows = [
      figuresRow("local selector", cases, (labelled) => rank(labelled.query)),
      figuresRow("clause-split BM25 (peer)", cases, (labelled) => peer(labelled.query, DEPTH)),
      figuresRow("local ranker on the true steps, interleaved", cases, (labelled) => interleave(labelled.steps.map(rank), DEPTH)),
    ];
    out.push(
      `${label}: ${cases.length} instructions of 3–4 steps over ${candidates.length} tools.`,
      "",
      markdownTable(["selector", "recall@1", "recall@5", "recall@10", "every step in the top 5"], rows),
      "",
    );
  }
  out.push(
    `Example: ${
      composeInstructions(
        groups[0].sets.flatMap((set) => set.cases),
        1,
      )[0].query
    }`,
  );
  return out.join("\n");
}
