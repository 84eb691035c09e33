import { type ToolListResponse, toolNameOf } from "./api-client";

/** The answer to "why does this configuration not see `name`?", read from a simulated list's trace. */
export type WhyAnswer = { kind: "removed"; stage: string; reason: string } | { kind: "present"; changes: string[] } | { kind: "unknown" };

/** Removed (at the first stage that removed it), in the final list (with what changed it), or no such tool. */
export function whyAnswer(result: ToolListResponse, name: string): WhyAnswer {
  const removal = result.trace.flatMap((entry) =>
    entry.removed.filter((note) => note.name === name).map((note) => ({ stage: entry.stage, reason: note.reason })),
  )[0];
  if (removal) return { kind: "removed", ...removal };
  if (!result.tools.some((tool) => toolNameOf(tool) === name)) return { kind: "unknown" };
  return { kind: "present", changes: result.trace.flatMap((entry) => entry.changed.filter((note) => note.name === name).map((note) => note.reason)) };
}

/** A list's token cost against the other configuration's, in words. */
export function tokenDifference(total: number, otherTotal: number): string {
  const delta = total - otherTotal;
  return delta === 0 ? "same token cost" : `${delta > 0 ? "+" : ""}${delta.toLocaleString()} tokens vs the other`;
}
