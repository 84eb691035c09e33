/** Edit distance (Damerau–Levenshtein, adjacent swaps count once) between two names, stopping once it passes `limit`. */
export function nameDistance(a: string, b: string, limit = Number.POSITIVE_INFINITY): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, before[j - 2] + 1);
      current.push(value);
      best = Math.min(best, value);
    }
    if (best > limit) return limit + 1;
    before = previous;
    previous = current;
  }
  return previous[b.length];
}

/** How far a typo may be from the name meant: one edit in a short name, more in a long one. */
const allowedDistance = (name: string) => Math.max(1, Math.min(3, Math.floor(name.length / 4)));

/**
 * The catalog's tool name a typed name most likely meant: the same name in other case, else the
 * closest within a few edits (ties: the alphabetically first). Undefined when none is close.
 */
export function suggestToolName(typed: string, toolNames: readonly string[]): string | undefined {
  const lower = typed.toLowerCase();
  const sameButCase = toolNames.find((name) => name.toLowerCase() === lower);
  if (sameButCase) return sameButCase;
  const limit = allowedDistance(typed);
  let best: { name: string; distance: number } | undefined;
  for (const name of toolNames) {
    const distance = nameDistance(lower, name.toLowerCase(), limit);
    if (distance > limit) continue;
    if (!best || distance < best.distance || (distance === best.distance && name < best.name)) best = { name, distance };
  }
  return best?.name;
}

/** A typed name the catalog lacks: its position in its list and the name it may have meant. */
export interface UnknownToolName {
  name: string;
  position: number;
  suggestion?: string;
}

/** The names of a list that are no tool of the catalog, each with a "did you mean". */
export function unknownToolNames(names: readonly string[], toolNames: readonly string[], known: ReadonlySet<string> = new Set(toolNames)): UnknownToolName[] {
  return names.flatMap((name, position) => {
    if (known.has(name)) return [];
    const suggestion = suggestToolName(name, toolNames);
    return [{ name, position, ...(suggestion ? { suggestion } : {}) }];
  });
}

/** The sentence that tells of an unknown name as one types it. */
export function unknownToolMessage(unknown: UnknownToolName): string {
  return `“${unknown.name}” is not a tool of this catalog.${unknown.suggestion ? ` Did you mean “${unknown.suggestion}”?` : ""}`;
}

/** What a draft of the rules changes in one model's and agent's tool list. */
export interface ToolListChange {
  before: number;
  after: number;
  added: string[];
  removed: string[];
}

/** The tools a list gains and loses, in the order of the list that has them. */
export function toolListChange(before: readonly string[], after: readonly string[]): ToolListChange {
  const had = new Set(before);
  const has = new Set(after);
  return {
    before: before.length,
    after: after.length,
    added: after.filter((name) => !had.has(name)),
    removed: before.filter((name) => !has.has(name)),
  };
}
