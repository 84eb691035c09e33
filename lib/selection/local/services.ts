/** Tools that must share a name prefix for it to count as the name of their service. */
const SERVICE_TOOLS = 3;
/** Longest service prefix, in words ("aws cloudwatch", "google calendar"). */
const SERVICE_PREFIX_WORDS = 3;

/**
 * Each name prefix of one to three words that leaves a word of its own, with the number of names
 * it begins (`github` of github_create_issue, github_list_pull_requests…).
 */
export function prefixCounts(names: readonly (readonly string[])[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const name of names) {
    for (let length = 1; length < Math.min(name.length, SERVICE_PREFIX_WORDS + 1); length++) {
      const prefix = name.slice(0, length).join(" ");
      counts.set(prefix, (counts.get(prefix) ?? 0) + 1);
    }
  }
  return counts;
}

/** The services of a catalog, from its names' prefix counts: every prefix that at least three tools share. */
export function prefixesOf(counts: ReadonlyMap<string, number>): Set<string> {
  return new Set([...counts].filter(([, count]) => namesAService(count)).map(([prefix]) => prefix));
}

/** Whether a name prefix that begins this many names is a service's. */
export function namesAService(count: number): boolean {
  return count >= SERVICE_TOOLS;
}

/** A tool name's words as its service (the longest known prefix, or none) and the rest, what the tool does. */
export function splitServicePrefix(name: readonly string[], prefixes: ReadonlySet<string>): { service: string[]; action: string[] } {
  for (let length = Math.min(name.length - 1, SERVICE_PREFIX_WORDS); length >= 1; length--) {
    if (prefixes.has(name.slice(0, length).join(" "))) return { service: name.slice(0, length), action: name.slice(length) };
  }
  return { service: [], action: [...name] };
}
