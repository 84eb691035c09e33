import type { Decision } from "@/db/queries/decisions";
import type { CallDecisionResult } from "@/lib/gateway/call-check";
import type { FlaggedSelection } from "@/lib/tools/poisoning";
import type { FederationDecisionResult } from "@/lib/gateway/federation";
import { isFederationKind, isGatewayRequest } from "@/lib/selection/types";
import { CallResultView } from "./call-decision";
import { FederationResultView } from "./federation-decision";
import { ScoreBar } from "./score-bar";

interface PreselectResult {
  /** `learned`: the part of the score learned from use, when any was. */
  selected?: { name: string; score: number; learned?: number }[];
  toolSet?: { name: string; origin: string }[];
  dropped?: { name: string; reason: string }[];
  /** How many tools the selector saw; decisions recorded before the count was stored list them all. */
  candidateCount?: number;
  candidates?: string[];
  flagged?: FlaggedSelection[];
}

interface ToolSearchResult {
  requested?: string[];
  tools?: string[];
  flagged?: FlaggedSelection[];
}

const ORIGINS = ["base", "preselected", "history", "entry"] as const;
const ORIGIN_LABELS: Record<(typeof ORIGINS)[number], string> = {
  base: "Base (always on)",
  preselected: "Preselected",
  history: "Earlier in the conversation",
  entry: "ToolSearch entry point",
};

/** What a decision came to, after the registry check: the tools selected or found, or what the gateway did with a call. */
export function DecisionResult({ decision }: { decision: Decision }) {
  return (
    <div className="panel stack" data-testid="decision-result">
      <h2>{isGatewayRequest(decision.kind) ? "What the gateway did" : "Verified result"}</h2>
      {isFederationKind(decision.kind) ? (
        <FederationResultView result={decision.result as Partial<FederationDecisionResult>} />
      ) : decision.kind === "preselect" ? (
        <PreselectResultView result={decision.result as PreselectResult} />
      ) : decision.kind === "call" ? (
        <CallResultView result={decision.result as Partial<CallDecisionResult>} />
      ) : (
        <ToolSearchResultView result={decision.result as ToolSearchResult} />
      )}
    </div>
  );
}

function PreselectResultView({ result }: { result: PreselectResult }) {
  const candidateCount = result.candidateCount ?? result.candidates?.length;
  return (
    <>
      <SelectedTools selected={result.selected ?? []} />
      <FlaggedTools flagged={result.flagged} />
      <ToolSetByOrigin toolSet={result.toolSet ?? []} />
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

function SelectedTools({ selected }: { selected: NonNullable<PreselectResult["selected"]> }) {
  const max = Math.max(0, ...selected.map((tool) => tool.score));
  return (
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
                <td className="mono small">
                  {tool.score.toFixed(3)}
                  {tool.learned !== undefined && tool.score > 0 && (
                    <span className="muted" data-testid={`learned-${tool.name}`} title="The part of the score learned from use">
                      {" "}
                      · {Math.round((100 * tool.learned) / tool.score)} % learned
                    </span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

function ToolSetByOrigin({ toolSet }: { toolSet: NonNullable<PreselectResult["toolSet"]> }) {
  return (
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
      <FlaggedTools flagged={result.flagged} />
    </>
  );
}

/** The chosen tools whose text reads as written for the model: offered because a person approved them, or a custom tool. */
function FlaggedTools({ flagged }: { flagged?: FlaggedSelection[] }) {
  if (!flagged?.length) return null;
  return (
    <div className="warn-box small" data-testid="decision-flagged">
      Chosen with open tool-poisoning findings:{" "}
      {flagged.map((entry, index) => (
        <span key={entry.tool}>
          {index > 0 && ", "}
          <code>{entry.tool}</code> ({entry.severity}: {entry.kinds.join(", ")})
        </span>
      ))}
      . Their text is on each tool's page.
    </div>
  );
}
