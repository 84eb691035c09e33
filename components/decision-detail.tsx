import Link from "next/link";
import type { Decision } from "@/db/queries/decisions";
import type { CallDecisionInput, CallDecisionResult } from "@/lib/gateway/call-check";
import { CallInputView, CallResultView, callSummary } from "./call-decision";
import { withContentKeys } from "./content-keys";
import { CodeBlock } from "./code-block";
import { LocalTime } from "./local-time";

/** Shared by the list and the detail: a plain helper, safe on the server and in the browser. What a decision chose, in a few words: how many tools it selected (preselection) or found (ToolSearch), or what became of a gateway call. */
export function resultSummary(decision: Pick<Decision, "kind" | "result">): string {
  if (decision.kind === "call") return callSummary((decision.result ?? {}) as Partial<CallDecisionResult>);
  const result = (decision.result ?? {}) as { selected?: unknown[]; tools?: unknown[] };
  if (decision.kind === "preselect") return `${result.selected?.length ?? 0} selected`;
  return `${result.tools?.length ?? 0} found`;
}

interface Message {
  role: string;
  content: string;
}

interface PreselectInput {
  messages?: Message[];
  k?: number | null;
  history?: string[];
  provider?: string | null;
}

interface ToolSearchInput {
  query?: string;
  maxResults?: number | null;
  messages?: Message[];
  provider?: string | null;
}

interface PreselectResult {
  selected?: { name: string; score: number }[];
  toolSet?: { name: string; origin: string }[];
  dropped?: { name: string; reason: string }[];
  /** How many tools the selector saw; decisions recorded before the count was stored list them all. */
  candidateCount?: number;
  candidates?: string[];
}

interface ToolSearchResult {
  requested?: string[];
  tools?: string[];
}

const ORIGINS = ["base", "preselected", "history", "entry"] as const;
const ORIGIN_LABELS: Record<(typeof ORIGINS)[number], string> = {
  base: "Base (always on)",
  preselected: "Preselected",
  history: "Earlier in the conversation",
  entry: "ToolSearch entry point",
};

export function DecisionDetail({ catalogId, decision }: { catalogId: string; decision: Decision }) {
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
              <span className="faint">{decision.kind === "call" ? "none: a call selects nothing" : "none: exact names are resolved locally"}</span>
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

      <div className="grid-2" style={{ alignItems: "start" }}>
        <div className="panel stack" data-testid="decision-input">
          <h2>{decision.kind === "call" ? "Call" : "Input"}</h2>
          {decision.kind === "preselect" ? (
            <PreselectInputView input={decision.input as PreselectInput} />
          ) : decision.kind === "call" ? (
            <CallInputView input={decision.input as Partial<CallDecisionInput>} />
          ) : (
            <ToolSearchInputView input={decision.input as ToolSearchInput} />
          )}
        </div>
        <div className="panel stack" data-testid="decision-result">
          <h2>{decision.kind === "call" ? "What the gateway did" : "Verified result"}</h2>
          {decision.kind === "preselect" ? (
            <PreselectResultView result={decision.result as PreselectResult} />
          ) : decision.kind === "call" ? (
            <CallResultView result={decision.result as Partial<CallDecisionResult>} />
          ) : (
            <ToolSearchResultView result={decision.result as ToolSearchResult} />
          )}
        </div>
      </div>

      {decision.kind !== "call" && <SelectionChecks decision={decision} />}
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

function Messages({ messages }: { messages: Message[] }) {
  if (messages.length === 0) return <p className="faint">No messages.</p>;
  return (
    <ol className="messages-log">
      {withContentKeys(messages, (message) => `${message.role} ${message.content}`).map(([key, message]) => (
        <li key={key}>
          <span className="badge">{message.role}</span> <span className="message-text">{message.content}</span>
        </li>
      ))}
    </ol>
  );
}

function PreselectInputView({ input }: { input: PreselectInput }) {
  return (
    <>
      <div>
        <h3>Messages</h3>
        <Messages messages={input.messages ?? []} />
      </div>
      <div className="row small">
        <span className="tag">k: {input.k ?? "default"}</span>
        {input.provider && <span className="tag">provider: {input.provider}</span>}
      </div>
      <div>
        <h3>History at the time</h3>
        {input.history?.length ? (
          input.history.map((name) => (
            <code key={name} className="tag">
              {name}
            </code>
          ))
        ) : (
          <span className="faint">none</span>
        )}
      </div>
    </>
  );
}

function ToolSearchInputView({ input }: { input: ToolSearchInput }) {
  return (
    <>
      <div>
        <h3>Query</h3>
        <CodeBlock label="Query" data-testid="decision-query">
          {input.query}
        </CodeBlock>
      </div>
      <div className="row small">
        <span className="tag">max results: {input.maxResults ?? "default"}</span>
        {input.provider && <span className="tag">provider: {input.provider}</span>}
      </div>
      <div>
        <h3>Conversation it saw</h3>
        <Messages messages={input.messages ?? []} />
      </div>
    </>
  );
}

export function ScoreBar({ score, max }: { score: number; max: number }) {
  const width = max > 0 ? Math.max(2, Math.round((score / max) * 100)) : 0;
  return (
    <div className="bar-track score-track" title={score.toFixed(3)}>
      <div className="bar" style={{ width: `${width}%` }} />
    </div>
  );
}

function PreselectResultView({ result }: { result: PreselectResult }) {
  const selected = result.selected ?? [];
  const max = Math.max(0, ...selected.map((tool) => tool.score));
  const toolSet = result.toolSet ?? [];
  const candidateCount = result.candidateCount ?? result.candidates?.length;
  return (
    <>
      <div>
        <h3>Selected ({selected.length})</h3>
        {selected.length === 0 ? (
          <p className="faint">Nothing was selected.</p>
        ) : (
          <table className="compact">
            <tbody>
              {selected.map((tool) => (
                <tr key={tool.name} data-testid={`selected-${tool.name}`}>
                  <td className="name">{tool.name}</td>
                  <td style={{ width: "40%" }}>
                    <ScoreBar score={tool.score} max={max} />
                  </td>
                  <td className="mono small">{tool.score.toFixed(3)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      <div data-testid="decision-tool-set">
        <h3>The turn's tool set by origin</h3>
        {ORIGINS.map((origin) => {
          const names = toolSet.filter((entry) => entry.origin === origin).map((entry) => entry.name);
          return (
            <div key={origin} className="origin-group">
              <span className="muted small">
                {ORIGIN_LABELS[origin]} ({names.length})
              </span>
              <div>
                {names.length ? (
                  names.map((name) => (
                    <code key={name} className="tag">
                      {name}
                    </code>
                  ))
                ) : (
                  <span className="faint small">none</span>
                )}
              </div>
            </div>
          );
        })}
      </div>
      {result.dropped && result.dropped.length > 0 && (
        <div data-testid="decision-dropped">
          <h3>Left out of the tool set ({result.dropped.length})</h3>
          <ul className="plain-list">
            {result.dropped.map((entry) => (
              <li key={entry.name} data-testid={`dropped-${entry.name}`}>
                <code>{entry.name}</code> <span className="muted">— {entry.reason}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
      {candidateCount !== undefined && (
        <p className="muted small" data-testid="candidate-count">
          The selector saw {candidateCount.toLocaleString("en")} candidates (names and summaries only).
        </p>
      )}
    </>
  );
}

function ToolSearchResultView({ result }: { result: ToolSearchResult }) {
  const tools = result.tools ?? [];
  return (
    <>
      <div>
        <h3>Asked for / returned by the selector</h3>
        {result.requested?.length ? (
          result.requested.map((name) => (
            <code key={name} className="tag">
              {name}
            </code>
          ))
        ) : (
          <span className="faint">none</span>
        )}
      </div>
      <div>
        <h3>Tools found ({tools.length})</h3>
        {tools.length ? (
          <ul className="plain-list">
            {tools.map((name) => (
              <li key={name} data-testid={`found-${name}`}>
                <code>{name}</code>
              </li>
            ))}
          </ul>
        ) : (
          <p className="faint">None passed the registry check.</p>
        )}
      </div>
    </>
  );
}
