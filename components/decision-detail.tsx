import Link from "next/link";
import type { ReactNode } from "react";
import type { Decision } from "@/db/queries/decisions";
import type { CallDecisionResult } from "@/lib/gateway/call-check";
import { isGatewayRequest } from "@/lib/selection/types";
import { callSummary } from "./call-decision";
import { CodeBlock } from "./code-block";
import { DecisionContext } from "./decision-context";
import { DecisionInput } from "./decision-input";
import { DecisionResult } from "./decision-result";
import { LocalTime } from "./local-time";

/** Shared by the list and the detail: a plain helper, safe on the server and in the browser. What a decision chose, in a few words: how many tools it selected (preselection) or found (ToolSearch), or what became of a gateway call, read or get. */
export function resultSummary(decision: Pick<Decision, "kind" | "result">): string {
  if (decision.kind === "call") return callSummary((decision.result ?? {}) as Partial<CallDecisionResult>);
  if (isGatewayRequest(decision.kind)) return (decision.result as { outcome?: string } | null)?.outcome ?? "unknown";
  const result = (decision.result ?? {}) as { selected?: unknown[]; tools?: unknown[] };
  if (decision.kind === "preselect") return `${result.selected?.length ?? 0} selected`;
  return `${result.tools?.length ?? 0} found`;
}

/**
 * One recorded decision: where it was made, its replay (`replay`, at the top, above the details),
 * what it was asked and what it came to, and for a selection what the registry check turned away.
 */
export function DecisionDetail({ catalogId, decision, replay }: { catalogId: string; decision: Decision; replay?: ReactNode }) {
  return (
    <div className="stack" data-testid="decision-detail">
      <div className="crumbs">
        <Link href={`/catalogs/${catalogId}/decisions`}>Decisions</Link> / <span className="mono">{decision.id}</span>
      </div>
      <div className="panel spread">
        <div className="row">
          <span className={`badge kind-${decision.kind}`} data-testid="decision-kind">
            {decision.kind}
          </span>
          <span className="mono" data-testid="decision-path">
            path: {decision.path}
          </span>
          <LocalTime className="muted small" iso={decision.createdAt} />
        </div>
        {decision.conversationId ? (
          <div className="row small">
            <Link href={`/catalogs/${catalogId}/playground?conversation=${decision.conversationId}`} data-testid="conversation-link">
              Open the conversation
            </Link>
            <Link href={`/catalogs/${catalogId}/decisions?conversation=${decision.conversationId}`}>Its decisions</Link>
          </div>
        ) : (
          <span className="faint small">No conversation (deleted)</span>
        )}
      </div>

      {replay}

      <DecisionContext decision={decision} />

      <div className="grid-2" style={{ alignItems: "start" }}>
        <DecisionInput decision={decision} />
        <DecisionResult decision={decision} />
      </div>

      {!isGatewayRequest(decision.kind) && <SelectionChecks decision={decision} />}
    </div>
  );
}

/** What the registry check turned away, and the selector's answer before it: preselection and ToolSearch only. */
function SelectionChecks({ decision }: { decision: Decision }) {
  return (
    <>
      <div className="panel" data-testid="decision-rejections">
        <h2>Rejected by the registry check ({decision.rejected.length})</h2>
        {decision.rejected.length === 0 ? (
          <p className="faint">Nothing was rejected.</p>
        ) : (
          <ul className="plain-list">
            {decision.rejected.map((rejection) => (
              <li key={rejection.name} data-testid={`rejection-${rejection.name}`}>
                <code>{rejection.name}</code> <span className="muted">— {rejection.reason}</span>
              </li>
            ))}
          </ul>
        )}
      </div>

      <div className="panel">
        <h2>Raw selector output</h2>
        <p className="muted small">
          What the selector returned before any check, invented names included
          {decision.path === "exact" ? " (on the exact path, the names asked for: no model was called)" : ""}.
        </p>
        <CodeBlock label="Raw selector output" className="json-block" data-testid="decision-raw">
          {JSON.stringify(decision.raw, null, 2)}
        </CodeBlock>
      </div>
    </>
  );
}
