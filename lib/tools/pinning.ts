import { createHash } from "node:crypto";
import type { HeldBack, InputSchema, ToolMeta, ToolSource } from "./types";

/**
 * Definition pinning: an MCP server is someone else's code, and what it says a tool is (its
 * description, schemas, annotations, title, `_meta`) goes straight to a model and its client. So
 * a tool of an MCP server is offered only while its definition is the one an editor approved; a
 * server that rewrites it (say, to slip instructions into a description) has the tool held back
 * until an editor approves or rejects the change. Plugins and skills are files of this deployment, as
 * trusted as its code, and are not pinned.
 *
 * First listing: the tools a server lists the first time the catalog has none of its tools (when
 * it is added, or at its first sync after being added unreachable or seeded) are approved by that
 * listing, i.e. by the admin who added the server. A tool the server adds later waits for an editor.
 */

export const PINNED_SOURCES: readonly ToolSource[] = ["mcp"];

/** What is pinned: everything of a tool its source decides (the name is its identity). */
export interface PinnedDefinition {
  summary: string;
  description: string;
  inputSchema: InputSchema;
  /** The tool's name on its server and what the server says of it besides: annotations (readOnlyHint, …), title, output schema, `_meta`. */
  meta: ToolMeta | null;
}

export function isPinnedSource(source: ToolSource): boolean {
  return PINNED_SOURCES.includes(source);
}

export function pinnedDefinitionOf(tool: PinnedDefinition): PinnedDefinition {
  return { summary: tool.summary, description: tool.description, inputSchema: tool.inputSchema, meta: tool.meta ?? null };
}

/** JSON with object keys sorted at every level: two definitions are the same exactly when these are. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item !== null && typeof item === "object" && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}

/** A short fingerprint of a definition: what an editor approves or rejects names it, so they never approve one they did not see. */
export function definitionDigest(definition: PinnedDefinition): string {
  return createHash("sha256")
    .update(canonicalJson(pinnedDefinitionOf(definition)))
    .digest("base64url");
}

function sameDefinition(a: PinnedDefinition, b: PinnedDefinition): boolean {
  return canonicalJson(pinnedDefinitionOf(a)) === canonicalJson(pinnedDefinitionOf(b));
}

/** Whether (and why) a tool is held back; undefined for a tool that is not pinned or whose definition is approved. */
export function heldBackState(source: ToolSource, current: PinnedDefinition, approved: PinnedDefinition | null): HeldBack | undefined {
  if (!isPinnedSource(source)) return undefined;
  if (approved === null) return "new";
  return sameDefinition(current, approved) ? undefined : "changed";
}

/** The pipeline's reason for leaving a held-back tool out. */
export function heldBackReason(state: HeldBack): string {
  return state === "new"
    ? "held back: its MCP server listed it after its first listing, or with text flagged as poisoned, and no editor has approved it yet (Tools page)"
    : "held back: its MCP server changed its definition since an editor approved it; the change waits for review (Tools page)";
}
