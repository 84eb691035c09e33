import { createHash } from "node:crypto";
import { type RegistryView, rejectionReason } from "../selection/verify";
import { assembleTurnToolSet } from "../selection/turn";
import { definitionDigest } from "../tools/pinning";
import type { Tool, ToolMeta } from "../tools/types";

/**
 * Whether the MCP gateway lets a session call a tool, decided from the catalog as it is at that
 * moment. The gateway asks it on every call, and replaying a call decision asks it again against
 * today's catalog, so both give the same answer for the same state.
 */

/** A catalog tool as the registry holds it: MCP tools say which server they are on and their name there. */
type CatalogTool = Tool & { sourceRef?: string | null; meta?: ToolMeta | null };

export type CallCheck =
  | { allowed: true; tool: CatalogTool & { sourceRef: string; meta: ToolMeta & { mcpName: string } }; needsApproval: boolean }
  /** unavailable: the model is told only that it may not call it; not-callable: it is told why (`reason`). */
  | { allowed: false; refusal: "unavailable" | "not-callable"; reason: string };

/** The tools a session lists: the agent's base tools and what ToolSearch found in it, as far as this model and agent see them now. */
export function sessionToolNames(view: RegistryView, baseTools: string[], history: string[]): string[] {
  const { entries } = assembleTurnToolSet({ baseTools, preselected: [], history, view });
  return entries.filter((entry) => entry.origin !== "entry").map((entry) => entry.name);
}

/**
 * Any tool the pipeline lets this model and agent use may be called, listed in the session or not:
 * a one-shot client (one initialize, one call) has no session to have found it in, and what a
 * session found is only which tools its list shows.
 */
export function checkCall(name: string, view: RegistryView): CallCheck {
  const reason = rejectionReason(name, view);
  if (reason !== undefined) return { allowed: false, refusal: "unavailable", reason };
  const tool = view.all.get(name) as CatalogTool;
  if (tool.source !== "mcp" || !tool.sourceRef || !tool.meta?.mcpName) {
    return {
      allowed: false,
      refusal: "not-callable",
      reason: `${name} is a ${tool.source} tool: Toolshed holds its definition, not an implementation, so it cannot be called through this gateway. Your agent runs it itself.`,
    };
  }
  return {
    allowed: true,
    tool: tool as CatalogTool & { sourceRef: string; meta: ToolMeta & { mcpName: string } },
    needsApproval: view.visible.get(name)!.needsApproval,
  };
}

/** The digest of a catalog tool's definition as its source gave it (see pinning.ts); null for a name the catalog does not hold. */
export function catalogDefinitionDigest(name: string, view: RegistryView): string | null {
  const tool = view.all.get(name) as CatalogTool | undefined;
  return tool ? definitionDigest({ ...tool, meta: tool.meta ?? null }) : null;
}

/** What a call decision keeps of the arguments: their size and a fingerprint (the conversation's message keeps them whole). */
export function argumentsFingerprint(args: Record<string, unknown>): { argumentsBytes: number; argumentsDigest: string } {
  const json = JSON.stringify(args);
  return { argumentsBytes: Buffer.byteLength(json), argumentsDigest: createHash("sha256").update(json).digest("base64url") };
}

/** How the user answered when asked to approve a call: null when nobody was asked. */
export type CallApproval = "accepted" | "declined" | "cancelled" | "unavailable" | null;

/** A call decision's input: the call, without its arguments. */
export interface CallDecisionInput {
  tool: string;
  via: "direct" | "ToolCall";
  argumentsBytes: number;
  argumentsDigest: string;
  /** The tool's definition when it was called (see pinning.ts); null for a name the catalog did not hold. */
  definitionDigest: string | null;
  /** Who sent the call (the token or person of the MCP session). */
  actor: string;
  provider: string | null;
}

/** A call decision's result: what the gateway did with the call. */
export interface CallDecisionResult {
  /** ok: the server answered; error: it answered with an error or failed; refused: it was not called. */
  outcome: "ok" | "error" | "refused";
  reason: string | null;
  /** Why an "error" call failed: its server did not answer in time, the client gave up, or the server answered with or failed with an error. */
  failure?: "timeout" | "cancelled" | "upstream";
  /** Whether the agent must ask the user before each call of the tool ("ask" permission). */
  needsApproval: boolean;
  approval: CallApproval;
}
