import { TOOL_SEARCH_NAME } from "./tool-search-definition";
import { rejectionReason, type Rejection, type RegistryView } from "./verify";

type ToolOrigin = "base" | "preselected" | "history" | "entry";

export interface TurnToolEntry {
  name: string;
  origin: ToolOrigin;
}

/**
 * The tools handed to the main model for one turn: the agent's base tools, the preselected ones,
 * those selected or found earlier in the conversation, and the ToolSearch entry point. A name
 * appears once, under its first origin in that order; base and history names that are no longer
 * visible are dropped with their reason.
 */
export function assembleTurnToolSet(input: { baseTools: string[]; preselected: string[]; history: string[]; view: RegistryView }): {
  entries: TurnToolEntry[];
  dropped: Rejection[];
} {
  const entries: TurnToolEntry[] = [];
  const dropped: Rejection[] = [];
  const seen = new Set<string>();
  const add = (names: string[], origin: ToolOrigin) => {
    for (const name of names) {
      if (seen.has(name)) continue;
      seen.add(name);
      const reason = rejectionReason(name, input.view);
      if (reason === undefined) entries.push({ name, origin });
      else dropped.push({ name, reason: `${origin} tool dropped: ${reason}` });
    }
  };
  add(input.baseTools, "base");
  add(input.preselected, "preselected");
  add(input.history, "history");
  entries.push({ name: TOOL_SEARCH_NAME, origin: "entry" });
  return { entries, dropped };
}
