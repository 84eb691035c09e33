import type { Decision } from "@/db/queries/decisions";
import { isGatewayRequest } from "@/lib/selection/types";

/** What a decision was made in: the catalog revision, model, agent and settings, the selector (or its fallback), latency and tokens. */
export function DecisionContext({ decision }: { decision: Decision }) {
  return (
    <div className="panel">
      <h2>Context</h2>
      <dl className="kv" data-testid="decision-facts">
        <dt>Catalog revision</dt>
        <dd data-testid="decision-revision">{decision.revision}</dd>
        <dt>Model</dt>
        <dd className="mono">{decision.model}</dd>
        <dt>Agent</dt>
        <dd className="mono">{decision.agent}</dd>
        <dt>Mode</dt>
        <dd>{decision.mode ?? <span className="faint">the agent's own</span>}</dd>
        <dt>Flags</dt>
        <dd>
          {decision.flags.length ? (
            decision.flags.map((flag) => (
              <span key={flag} className="tag">
                {flag}
              </span>
            ))
          ) : (
            <span className="faint">none</span>
          )}
        </dd>
        <dt>Selector</dt>
        <dd data-testid="decision-selector">
          {decision.selector ?? (
            <span className="faint">
              {isGatewayRequest(decision.kind) ? "none: a gateway request selects nothing" : "none: exact names are resolved locally"}
            </span>
          )}
        </dd>
        <dt>Fallback</dt>
        <dd data-testid="decision-fallback">
          {decision.fallback ? (
            <span>
              <span className="badge warn">fallback</span> from <code>{decision.fallback.from}</code>: {decision.fallback.cause}
            </span>
          ) : (
            <span className="faint">none</span>
          )}
        </dd>
        <dt>Latency</dt>
        <dd data-testid="decision-latency">{decision.latencyMs.toFixed(1)} ms</dd>
        <dt>Tokens</dt>
        <dd data-testid="decision-tokens">
          {Object.entries(decision.tokens).map(([key, value]) => (
            <span key={key} className="tag">
              {key}: {value}
            </span>
          ))}
        </dd>
      </dl>
    </div>
  );
}
