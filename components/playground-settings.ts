/** The turn configuration every playground exchange carries: the page's URL holds it. */
export interface PlaygroundSettings {
  model: string;
  agent: string;
  mode?: string;
  flags: string[];
  k: number;
}

/** The URL's settings; without an agent, the first that is not a subagent (else the first, else "build"). */
export function settingsOf(params: { get(name: string): string | null }, agents: { name: string; mode: string }[]): PlaygroundSettings {
  const primary = agents.find((agent) => agent.mode !== "subagent")?.name ?? agents[0]?.name ?? "build";
  return {
    model: params.get("model") ?? "claude-sonnet-4-5",
    agent: params.get("agent") ?? primary,
    mode: params.get("mode") || undefined,
    flags: (params.get("flags") ?? "").split(",").filter(Boolean),
    k: Number(params.get("k") ?? 8),
  };
}

/** The URL parameters that change from `current` to `next` (undefined: the parameter goes); only those, so the URL names no more than was set. */
export function settingsChange(current: PlaygroundSettings, next: PlaygroundSettings): Record<string, string | undefined> {
  const change: Record<string, string | undefined> = {};
  if (next.model !== current.model) change.model = next.model;
  if (next.agent !== current.agent) change.agent = next.agent;
  if (next.mode !== current.mode) change.mode = next.mode || undefined;
  if (next.flags.join(",") !== current.flags.join(",")) change.flags = next.flags.join(",") || undefined;
  if (next.k !== current.k) change.k = String(next.k);
  return change;
}
