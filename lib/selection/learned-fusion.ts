import type { LearnedScore } from "./learned";
import { createLocalIndex, type LocalIndex } from "./local/bm25f";
import { splitIntents } from "./local/intents";
import type { RankedTool, SelectorCandidate } from "./types";

/** How many of the base ranking's best tools learning may reorder, besides the tools it knows. */
export const LEARNING_POOL = 100;

/**
 * The base ranking with what was learned added: each tool scores its base score plus
 * `weight × trust × share` of the request's best base score, so a perfect, trusted learned match
 * weighs `weight` times the best description match. Only `candidates` can be ranked: learning
 * never brings in a tool the pipeline did not offer. `learned` on a tool is the part of its score
 * that was learned.
 */
export function fuseLearned(
  base: readonly RankedTool[],
  learned: ReadonlyMap<string, LearnedScore>,
  candidates: ReadonlySet<string>,
  k: number,
  weight: number,
): RankedTool[] {
  const best = base[0]?.score ?? 1;
  const fused = new Map<string, RankedTool>(base.map((tool) => [tool.name, { name: tool.name, score: tool.score }]));
  for (const [name, { share, trust }] of learned) {
    if (!candidates.has(name)) continue;
    const part = best * weight * trust * share;
    if (part <= 0) continue;
    const tool = fused.get(name) ?? { name, score: 0 };
    fused.set(name, { name, score: tool.score + part, learned: part });
  }
  return [...fused.values()].sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).slice(0, k);
}

/**
 * A request of more tasks than this is not split between its tools: each gets the whole request.
 * Each task is ranked against every used tool: a report of 250 events, each of 100 clauses and 20
 * tools, would otherwise keep the server busy for seconds.
 */
const MAX_ATTRIBUTED_TASKS = 16;

/** The used tool each task goes to (undefined for none), by the scores of the used tools for each task. */
function ownersOfIntents(byIntent: readonly ReadonlyMap<string, number>[], used: readonly string[]): (string | undefined)[] {
  // Each task to the tool that matches it best.
  const owners = byIntent.map((scores) => {
    let owner: string | undefined;
    let top = 0;
    for (const tool of used) if ((scores.get(tool) ?? 0) > top) [owner, top] = [tool, scores.get(tool) ?? 0];
    return owner;
  });
  const owned = (tool: string) => owners.filter((owner) => owner === tool).length;
  // A tool left without a task takes the one its text matches best relative to the others, if that task's tool keeps another.
  for (const tool of used.filter((name) => owned(name) === 0)) {
    let bestIntent = -1;
    let bestShare = 0;
    byIntent.forEach((scores, intent) => {
      const top = Math.max(0, ...scores.values());
      const share = top > 0 ? (scores.get(tool) ?? 0) / top : 0;
      if (share > bestShare && owned(owners[intent]!) > 1) [bestIntent, bestShare] = [intent, share];
    });
    if (bestIntent >= 0) owners[bestIntent] = tool;
  }
  // Tasks no tool matches: to the tools still without one, in order, one run of tasks each; else with the task before (or after) them.
  const waiting = used.filter((name) => owned(name) === 0);
  let run = -1;
  owners.forEach((owner, intent) => {
    if (owner !== undefined) return;
    if (intent === 0 || owners[intent - 1] !== undefined) run++;
    if (run < waiting.length) owners[intent] = waiting[run];
  });
  let previous = owners.find((owner) => owner !== undefined);
  return owners.map((owner) => (previous = owner ?? previous));
}

/**
 * Which words of a request led to each tool used: with one tool, or a request of one task (or of
 * more than MAX_ATTRIBUTED_TASKS), the whole request; with several of each, each task (intent)
 * goes to one used tool (ownersOfIntents), and each tool gets its tasks, so that a request for
 * several tools does not lend the words of one task to the tool of another, and a step split at its
 * commas stays whole. A tool that no task went to gets the whole request. `scoreIntent` ranks the
 * used tools for one task.
 */
export function attributeUse(
  request: string,
  used: readonly string[],
  scoreIntent: (intent: string, tools: readonly string[]) => ReadonlyMap<string, number>,
): Map<string, string> {
  const whole = new Map(used.map((tool) => [tool, request]));
  if (used.length < 2) return whole;
  const intents = splitIntents(request);
  if (intents.length < 2 || intents.length > MAX_ATTRIBUTED_TASKS) return whole;
  const owners = ownersOfIntents(
    intents.map((intent) => scoreIntent(intent, used)),
    used,
  );
  for (const tool of used) {
    const own = intents.filter((_, intent) => owners[intent] === tool);
    if (own.length > 0) whole.set(tool, own.join(" "));
  }
  return whole;
}

/** attributeUse with the local ranker over the used tools' own text deciding which task each tool serves. */
export function attributeByText(request: string, used: readonly SelectorCandidate[]): Map<string, string> {
  let index: LocalIndex | undefined;
  return attributeUse(
    request,
    used.map((tool) => tool.name),
    (intent, tools) => {
      index ??= createLocalIndex([...used]);
      return new Map(index.rank([{ role: "user", content: intent }], tools.length).map((tool) => [tool.name, tool.score]));
    },
  );
}
