import type { RankedTool } from "../types";

/** A tool in the running for the top k: its fused score and its score for each intent of the request. */
export interface PoolEntry {
  name: string;
  score: number;
  intentScores: number[];
}

/**
 * Greedy intent coverage (xQuAD): each next tool is the one best by its fused score blended with
 * how much it covers the intents the tools already chosen cover least, so a request for several
 * tasks gets a tool for each of them before a second tool for the same task. A tool's coverage of
 * an intent is its score for it relative to the intent's best tool, raised to `sharpness`: above 1,
 * a tool that is only fairly good for a task (a near twin, a tool for a neighbouring step) covers it
 * much less than the task's best, so one step's second tool does not pass for another step's first.
 */
export function coverIntents(pool: readonly PoolEntry[], intentBests: readonly number[], k: number, weight: number, sharpness = 1): RankedTool[] {
  const covers = (score: number, intent: number): number => (score / intentBests[intent]) ** sharpness;
  const remaining = pool.map(() => true);
  const uncovered = intentBests.map(() => 1);
  const top = pool[0]?.score ?? 0;
  const chosen: RankedTool[] = [];
  while (chosen.length < Math.min(k, pool.length)) {
    let pick = -1;
    let pickValue = -1;
    pool.forEach((entry, index) => {
      if (!remaining[index]) return;
      let coverage = 0;
      entry.intentScores.forEach((score, intent) => {
        if (intentBests[intent] > 0) coverage += uncovered[intent] * covers(score, intent);
      });
      const value = (1 - weight) * (entry.score / top) + (weight * coverage) / intentBests.length;
      if (value > pickValue) [pick, pickValue] = [index, value];
    });
    remaining[pick] = false;
    const entry = pool[pick];
    entry.intentScores.forEach((score, intent) => {
      if (intentBests[intent] > 0) uncovered[intent] *= 1 - covers(score, intent);
    });
    chosen.push({ name: entry.name, score: pickValue * top });
  }
  return chosen;
}
