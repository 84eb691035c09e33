import type { CallApproval, CallDecisionInput, CallDecisionResult } from "@/lib/gateway/call-check";
import type { CallOutcome, ReplayDiff } from "@/lib/selection/replay";

/** A call decision of the MCP gateway (kind "call"), its input and result, and its replay's verdict. Safe on the server and in the browser. */

const APPROVAL_LABELS: Record<Exclude<CallApproval, null>, string> = {
  accepted: "approved by the user",
  declined: "declined by the user",
  cancelled: "dismissed by the user",
  unavailable: "the client cannot ask the user",
};

/** A call's outcome in a few words, as the decisions list shows it. */
export function callSummary(result: Partial<CallDecisionResult>): string {
  const outcome = result.outcome ?? "unknown";
  return result.approval && result.approval !== "accepted" ? `${outcome} (${APPROVAL_LABELS[result.approval]})` : outcome;
}

export function CallInputView({ input }: { input: Partial<CallDecisionInput> }) {
  return (
    <dl className="kv" data-testid="call-input">
      <dt>Tool</dt>
      <dd>
        <code data-testid="call-tool">{input.tool}</code>{" "}
        <span className="muted small">{input.via === "ToolCall" ? "through ToolCall" : "called by its name"}</span>
      </dd>
      <dt>Arguments</dt>
      <dd className="small">
        {input.argumentsBytes ?? 0} bytes, SHA-256 <code>{input.argumentsDigest}</code>{" "}
        <span className="muted">(the conversation's message keeps them whole)</span>
      </dd>
      <dt>Definition</dt>
      <dd className="small">{input.definitionDigest ? <code>{input.definitionDigest}</code> : <span className="faint">not in the catalog</span>}</dd>
      <dt>Called by</dt>
      <dd className="mono small">{input.actor}</dd>
    </dl>
  );
}

export function CallResultView({ result }: { result: Partial<CallDecisionResult> }) {
  const tone = result.outcome === "ok" ? "ok" : "off";
  return (
    <dl className="kv" data-testid="call-result">
      <dt>Outcome</dt>
      <dd>
        <span className={`badge ${tone}`} data-testid="call-outcome">
          {result.outcome}
        </span>
      </dd>
      {result.reason && (
        <>
          <dt>{result.outcome === "refused" ? "Why" : "Error"}</dt>
          <dd data-testid="call-reason">{result.reason}</dd>
        </>
      )}
      <dt>Approval</dt>
      <dd data-testid="call-approval">
        {result.approval ? APPROVAL_LABELS[result.approval] : result.needsApproval ? "needed, not asked" : <span className="faint">not needed</span>}
      </dd>
    </dl>
  );
}

/** Whether the gateway would let the recorded call through today, why not, and what changed about the tool since. */
export function CallReplayVerdict({ before, after, diff }: { before: CallOutcome; after: CallOutcome; diff: NonNullable<ReplayDiff["call"]> }) {
  const allowed = after.outcome === "allowed";
  return (
    <div className={`panel ${allowed ? "empty" : "error-box"}`} data-testid="call-verdict">
      <strong>{allowed ? "Allowed today" : "Refused today"}</strong>{" "}
      {allowed ? (
        <span>
          The gateway would pass this call of <code>{after.tool}</code> to its server{after.needsApproval ? " once the user approves it" : ""}.
        </span>
      ) : (
        <span data-testid="call-verdict-reason">{after.reason}</span>
      )}
      <p className="muted small">
        Then: {before.outcome}
        {before.reason ? ` (${before.reason})` : ""}.
      </p>
      <ul className="plain-list small">
        {diff.definitionChanged && (
          <li data-testid="call-definition-changed">
            Its definition changed since the call: <code>{before.definitionDigest ?? "none"}</code> → <code>{after.definitionDigest ?? "none"}</code>
          </li>
        )}
        {diff.approvalChanged && (
          <li data-testid="call-approval-changed">
            {after.needsApproval ? "The agent must now ask the user before each call." : "The agent no longer needs to ask the user."}
          </li>
        )}
      </ul>
    </div>
  );
}
