import "server-only";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { getDb } from "@/db/client";
import { appendMessage, heldTools } from "@/db/queries/conversations";
import { actorOf } from "@/lib/auth/policy";
import {
  argumentsFingerprint,
  type CallApproval,
  type CallCheck,
  type CallDecisionInput,
  type CallDecisionResult,
  catalogDefinitionDigest,
  checkCall,
} from "@/lib/gateway/call-check";
import { namespaceContent } from "@/lib/gateway/federation";
import { checkOutputSchema } from "@/lib/gateway/served-tools";
import { recordToolCall } from "@/lib/observability/metrics";
import { limitMcpResult, type McpCallOptions, mcpResultMaxChars } from "@/lib/sources/mcp";
import { toolArgumentsProblem } from "@/lib/tools/validate";
import type { Caller, GatewaySession } from "./mcp-gateway";
import { readTurnView } from "./selection";
import { callMcpToolForModel } from "./sources";
import { callFailure, recordCountedDecision } from "./usage";

/** A gateway call of a catalog tool, from its checks to its decision and message (the MCP gateway's ToolCall and direct calls). */

export const textResult = (text: string, isError = false): CallToolResult => ({ content: [{ type: "text", text }], ...(isError ? { isError } : {}) });

/** What the model reads of a tool this agent may not use, whatever the reason: nothing about what exists, and no step that could change it. */
function notAvailableMessage(name: string, agent: string): string {
  return `${name} is not available to this agent ("${agent}"): it cannot be called here, and ToolSearch cannot make it available. Use another tool, or tell the user.`;
}

/** What the model reads when a call that needed approval was not made. */
function approvalRefusal(name: string, agent: string, approval: Exclude<CallApproval, "accepted" | null>): string {
  if (approval === "declined") return `The user declined this call of ${name}: it was not made.`;
  if (approval === "cancelled") return `The user dismissed the approval of this call of ${name} without answering: it was not made.`;
  return `${name} needs the user's approval before each call (agent "${agent}" must ask), and this MCP client cannot ask for it: it did not declare the elicitation capability. It was not called.`;
}

/** Whether the session may call the tool now, and what its decision records of the catalog at that moment. */
async function checkNow(session: GatewaySession, name: string) {
  const { state, view } = await readTurnView(getDb(), session.catalogId, session.turn);
  const revision = state.revision;
  return {
    check: checkCall(name, view),
    at: { revision, definitionDigest: catalogDefinitionDigest(name, view), needsApproval: view.visible.get(name)?.needsApproval ?? false },
    /** The parameter defaults a catalog override sets (lib/pipeline/definition-overrides.ts). */
    defaults: view.visible.get(name)?.argumentDefaults,
  };
}

type GatewayTool = Extract<CallCheck, { allowed: true }>["tool"];

interface GatewayCall {
  name: string;
  args: Record<string, unknown>;
  via: CallDecisionInput["via"];
}

/**
 * Calls any tool this model and agent may use, listed in the session or not, checked at call time:
 * a tool they may not see now (denied, disabled, held back, or not in the catalog) is refused with
 * the same words whatever the reason, so a refusal tells nothing about what exists (the decision
 * log, which the catalog's readers see, says which). A tool the agent must ask about waits for the
 * user's approval. Every call, made or refused, is a decision of the session's conversation.
 */
export async function callCatalogTool(
  session: GatewaySession,
  caller: Caller,
  call: GatewayCall,
  approve: (message: string) => Promise<Exclude<CallApproval, null>>,
  upstream: McpCallOptions,
): Promise<CallToolResult> {
  const record: CallRecorder = (at, result, latencyMs = 0) => {
    // Calls that reached the server are counted with how they ended where they were made (callMcpToolForModel).
    // A name the catalog does not hold is counted under one label: a client's made-up names must not each be a series.
    if (result.outcome === "refused") recordToolCall(session.catalogId, at.definitionDigest === null ? UNKNOWN_TOOL : call.name, "refused", null);
    return recordCallDecision(session, caller, call, at, { ...result, needsApproval: at.needsApproval }, latencyMs);
  };
  const cleared = await clearCall(session, call, approve, record);
  if ("answer" in cleared) return cleared.answer;
  const { approval } = cleared;
  // A parameter the call leaves out gets the catalog override's default, as its listing says, not its server's own.
  const { result, failure, latencyMs } = await callUpstream(session, caller, { ...call, args: cleared.args }, cleared.tool, upstream);
  const decision = await record(
    cleared.at,
    result.isError ? { outcome: "error", reason: errorTextOf(result), failure, approval } : { outcome: "ok", reason: null, approval },
    latencyMs,
  );
  await appendMessage(getDb(), session.conversationId, {
    role: "tool",
    content: "",
    details: {
      gatewayCall: { tool: call.name, via: call.via, arguments: call.args, result, latencyMs, actor: actorOf(caller.principal), decisionId: decision.id },
    },
  });
  return result;
}

/** The metrics' tool label for calls of names the catalog does not hold. */
const UNKNOWN_TOOL = "(not in the catalog)";

type CallAt = Awaited<ReturnType<typeof checkNow>>["at"];

/** Records a call's decision against the catalog as it was checked. */
type CallRecorder = (at: CallAt, result: Omit<CallDecisionResult, "needsApproval">, latencyMs?: number) => ReturnType<typeof recordCallDecision>;

/**
 * The checks before a call reaches its server, each refusal recorded: the tool's visibility, its
 * arguments, the user's approval, then both again. Ends in the answer the model reads, or in the
 * tool to call.
 */
async function clearCall(
  session: GatewaySession,
  call: GatewayCall,
  approve: (message: string) => Promise<Exclude<CallApproval, null>>,
  record: CallRecorder,
): Promise<{ answer: CallToolResult } | { tool: GatewayTool; approval: CallApproval; at: CallAt; args: Record<string, unknown> }> {
  const { name } = call;
  let checked = await checkNow(session, name);
  let args = { ...checked.defaults, ...call.args };
  // A refusal is a tool error the model reads: the same words for every tool it may not use (denied,
  // disabled, held back, unknown), since no ToolSearch can change that; a tool it may see but the
  // gateway cannot run says why.
  const refusal = async (refused: Extract<CallCheck, { allowed: false }>, approval: CallApproval) => {
    await record(checked.at, { outcome: "refused", reason: refused.reason, approval });
    return { answer: textResult(refused.refusal === "unavailable" ? notAvailableMessage(name, session.turn.agent) : refused.reason, true) };
  };
  if (!checked.check.allowed) return refusal(checked.check, null);
  // Arguments the tool's stored schema refuses never reach its server, nor the user's approval: the model reads why, and corrects them.
  const refuseArguments = async (tool: GatewayTool, approval: CallApproval) => {
    const invalid = toolArgumentsProblem(tool, args);
    if (invalid !== undefined) await record(checked.at, { outcome: "refused", reason: invalid, approval });
    return invalid;
  };
  const invalidArguments = await refuseArguments(checked.check.tool, null);
  if (invalidArguments !== undefined) return { answer: textResult(invalidArguments, true) };
  let approval: CallApproval = null;
  if (checked.check.needsApproval) {
    approval = await approve(`Agent "${session.turn.agent}" wants to call ${name} with these arguments:\n${JSON.stringify(args, null, 2)}\nAllow this call?`);
    if (approval !== "accepted") {
      const reason = approvalRefusal(name, session.turn.agent, approval);
      await record(checked.at, { outcome: "refused", reason, approval });
      return { answer: textResult(reason, true) };
    }
    // The user may take minutes to answer: the call is checked again against the catalog as it is then.
    checked = await checkNow(session, name);
    if (!checked.check.allowed) return refusal(checked.check, approval);
    args = { ...checked.defaults, ...call.args };
  }
  const { tool } = checked.check;
  if (approval !== null) {
    // Its definition may have changed while the user was asked.
    const invalid = await refuseArguments(tool, approval);
    if (invalid !== undefined) return { answer: textResult(invalid, true) };
  }
  return { tool, approval, at: checked.at, args };
}

/** Calls the tool's server: its answer, limited and checked against the tool's output schema, or what went wrong. */
async function callUpstream(session: GatewaySession, caller: Caller, call: GatewayCall, tool: GatewayTool, upstream: McpCallOptions) {
  const started = performance.now();
  let result: CallToolResult;
  let failure: CallDecisionResult["failure"] = "upstream";
  try {
    const answer = limitMcpResult(
      checkOutputSchema(
        call.name,
        tool.meta.outputSchema,
        await callMcpToolForModel(getDb(), session.catalogId, tool.sourceRef, tool.meta.mcpName, call.args, {
          upstreamDetails: caller.access === "admin",
          tool: call.name,
          // Whose own credential a per-person server is called with; the token that reached the gateway never goes further.
          principal: caller.principal,
          ...upstream,
        }),
      ),
      mcpResultMaxChars(process.env),
    );
    result = {
      // Resource links and embedded resources get gateway URIs: a client reads them through the gateway (mcp-gateway-federation.ts).
      content: answer.content.map((block) => namespaceContent(tool.sourceRef, block)),
      ...(answer.isError ? { isError: true } : {}),
      ...(answer.structuredContent ? { structuredContent: answer.structuredContent } : {}),
    };
  } catch (error) {
    // The server failed (a timeout, a crash): the model reads what happened, as with a tool's own error.
    // A call the client gave up is recorded as such: nobody reads its answer.
    const message = upstream.signal?.aborted ? "Cancelled by the client." : error instanceof Error ? error.message : String(error);
    result = textResult(message, true);
    failure = callFailure(error, upstream.signal?.aborted === true);
  }
  return { result, failure, latencyMs: Math.round(performance.now() - started) };
}

/** An error result's text as the model read it, its start only: the conversation's message keeps it whole. */
const errorTextOf = (result: CallToolResult) =>
  (result.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n") || "the tool answered with an error").slice(0, 1000);

/** The call as a decision, counted in the usage: a call of a tool its conversation held (the model had been given it) or not. */
async function recordCallDecision(
  session: GatewaySession,
  caller: Caller,
  call: GatewayCall,
  at: { revision: number; definitionDigest: string | null },
  result: CallDecisionResult,
  latencyMs: number,
) {
  const input: CallDecisionInput = {
    tool: call.name,
    via: call.via,
    ...argumentsFingerprint(call.args),
    definitionDigest: at.definitionDigest,
    actor: actorOf(caller.principal),
    provider: session.turn.provider ?? null,
  };
  const db = getDb();
  const held = session.conversationId ? await heldTools(db, session.conversationId, [call.name]) : new Set<string>();
  return recordCountedDecision(
    db,
    {
      ...sessionCallDecision(session),
      revision: at.revision,
      kind: "call",
      input,
      result,
      rejected: result.outcome === "refused" ? [{ name: call.name, reason: result.reason! }] : [],
      latencyMs,
      tokens: {},
    },
    held,
  );
}

/** What every decision of a gateway session's call (a tool call, a resource read, a prompt get) says of the session. */
export function sessionCallDecision(session: GatewaySession) {
  return {
    catalogId: session.catalogId,
    conversationId: session.conversationId,
    path: "call" as const,
    model: session.turn.model,
    agent: session.turn.agent,
    mode: session.turn.mode ?? null,
    flags: session.turn.flags ?? [],
    selector: null,
    fallback: null,
    raw: null,
  };
}
