import type { FederationDecisionInput, FederationDecisionResult } from "@/lib/gateway/federation";

/** A resource read or prompt get of the MCP gateway (kinds "resource-read", "prompt-get"), its input and result. Safe on the server and in the browser. */

export function FederationInputView({ kind, input }: { kind: "resource-read" | "prompt-get"; input: Partial<FederationDecisionInput> }) {
  return (
    <dl className="kv" data-testid="federation-input">
      <dt>{kind === "resource-read" ? "Resource" : "Prompt"}</dt>
      <dd>
        <code data-testid="federation-item">{input.item}</code>
      </dd>
      <dt>Server</dt>
      <dd className="small">{input.server ? <code>{input.server}</code> : <span className="faint">none this session may use</span>}</dd>
      {kind === "prompt-get" && (
        <>
          <dt>Arguments</dt>
          <dd className="small">
            {input.argumentsBytes ?? 0} bytes, SHA-256 <code>{input.argumentsDigest}</code>
          </dd>
        </>
      )}
      <dt>Asked by</dt>
      <dd className="mono small">{input.actor}</dd>
    </dl>
  );
}

export function FederationResultView({ result }: { result: Partial<FederationDecisionResult> }) {
  return (
    <dl className="kv" data-testid="federation-result">
      <dt>Outcome</dt>
      <dd>
        <span className={`badge ${result.outcome === "ok" ? "ok" : "off"}`} data-testid="federation-outcome">
          {result.outcome}
        </span>
      </dd>
      {result.reason && (
        <>
          <dt>{result.outcome === "refused" ? "Why (the caller was told only that it was not found)" : "Error"}</dt>
          <dd data-testid="federation-reason">{result.reason}</dd>
        </>
      )}
    </dl>
  );
}
