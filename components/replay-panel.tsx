"use client";

import { useMutation } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { replayDecisionAction } from "@/app/catalogs/[catalog]/decisions/actions";
import type { ReplayResponse } from "@/app/_services/replay";
import type { DecisionKind } from "@/lib/selection/types";
import { CallReplayVerdict } from "./call-decision";
import { withContentKeys } from "./content-keys";
import { ScoreBar } from "./score-bar";
import { LocalTime } from "./local-time";
import { SelectorPicker } from "./selector-picker";

interface Props {
  decisionId: string;
  kind: DecisionKind;
  /** "local" and the configured auxiliary model's id, when it is another. */
  selectors: string[];
  defaultSelector: string;
}

export function ReplayPanel({ decisionId, kind, selectors, defaultSelector }: Props) {
  const [selector, setSelector] = useState(defaultSelector);
  const replay = useMutation({
    mutationFn: async (chosen: string) => {
      // A call is checked, not selected again: no selector.
      const result = await replayDecisionAction(decisionId, kind === "call" ? {} : { selector: chosen });
      if (!result.ok) throw new Error(result.error.message);
      return result.data;
    },
  });

  // The result comes into view as it arrives, wherever the page was scrolled.
  const outcome = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (replay.data || replay.error) outcome.current?.scrollIntoView({ block: "nearest", behavior: "smooth" });
  }, [replay.data, replay.error]);

  return (
    <div className="panel stack" data-testid="replay-panel">
      <div className="spread">
        <div>
          <h2>Replay against today's catalog</h2>
          <p className="muted small">
            {kind === "call"
              ? "Checks again whether the MCP gateway would let this call through now: the tool's visibility to this model and agent (permissions, held-back definitions), whether the session has it, and whether the user must approve it. The call is not made again."
              : `Re-runs this decision's recorded input (messages, ${kind === "preselect" ? "k and history" : "query and limit"}) against the catalog as it is now.`}{" "}
            Nothing is written: the conversation and the decision log are left as they are.
          </p>
        </div>
        <div className="row">
          {kind !== "call" && <SelectorPicker selectors={selectors} value={selector} onChange={setSelector} testId="replay-selector" />}
          <button type="button" className="primary" disabled={replay.isPending} onClick={() => replay.mutate(selector)} data-testid="replay-button">
            {replay.isPending ? "Replaying…" : "Replay"}
          </button>
        </div>
      </div>
      <div ref={outcome} className="stack">
        {replay.error && (
          <div className="error-box" role="alert" data-testid="replay-error">
            {replay.error.message}
          </div>
        )}
        {replay.data && <ReplayResult result={replay.data} kind={kind} />}
      </div>
    </div>
  );
}

function ReplayResult({ result, kind }: { result: ReplayResponse; kind: Props["kind"] }) {
  const { before, after, diff, catalogChanges } = result;
  const unchanged = diff.added.length + diff.removed.length + diff.rejected.length + diff.scoreChanges.length === 0;
  const chosen = kind === "preselect" ? "selected" : kind === "call" ? "let through" : "found";
  return (
    <div className="stack" data-testid="replay-result">
      <ReplayBadges result={result} kind={kind} />

      {before.call && after.call && diff.call && <CallReplayVerdict before={before.call} after={after.call} diff={diff.call} />}

      {unchanged ? (
        <div className="panel empty" data-testid="replay-unchanged">
          <strong>Same outcome today</strong>
          The replay {chosen} the same tools{kind === "preselect" ? " with the same scores" : ""} and {kind === "call" ? "refused" : "rejected"} nothing new.
        </div>
      ) : (
        <div className="grid-2" style={{ alignItems: "start" }}>
          <div className="stack">
            <DiffList testId="diff-added" title={`Added: ${chosen} now, not before`} names={diff.added} tone="added" />
            <DiffList testId="diff-removed" title={`Removed: ${chosen} before, not now`} names={diff.removed} tone="removed" />
          </div>
          <div className="stack">
            <RejectedList rejected={diff.rejected} />
            {kind === "preselect" && <ScoreChanges changes={diff.scoreChanges} />}
          </div>
        </div>
      )}

      <div className="grid-2" style={{ alignItems: "start" }}>
        <Outcome title={`Before (revision ${before.revision})`} names={before.names} testId="replay-before" />
        <Outcome title={`After (revision ${after.revision})`} names={after.names} testId="replay-after" />
      </div>

      <CatalogChanges revision={before.revision} changes={catalogChanges} />
    </div>
  );
}

/** The revisions, selector, path and latency of the replay. */
function ReplayBadges({ result, kind }: { result: ReplayResponse; kind: Props["kind"] }) {
  const { before, after } = result;
  return (
    <div className="row small">
      <span className="badge">
        revision {before.revision} → {after.revision}
      </span>
      {kind !== "call" && (
        <>
          <span className="badge" data-testid="replay-used-selector">
            selector: {after.selector ?? "none (exact)"}
          </span>
          <span className="badge">
            path: {before.path} → {after.path}
          </span>
        </>
      )}
      {after.fallback && (
        <span className="badge warn" title={after.fallback.cause}>
          fell back from {after.fallback.from}
        </span>
      )}
      <span className="muted">{after.latencyMs.toFixed(1)} ms</span>
    </div>
  );
}

function RejectedList({ rejected }: { rejected: ReplayResponse["diff"]["rejected"] }) {
  return (
    <div data-testid="diff-rejected">
      <h3>Newly rejected ({rejected.length})</h3>
      {rejected.length === 0 ? (
        <p className="faint small">None.</p>
      ) : (
        <ul className="plain-list">
          {rejected.map((entry) => (
            <li key={entry.name} className="diff-removed" data-testid={`diff-rejected-${entry.name}`}>
              <code>{entry.name}</code> — {entry.reason}
              {entry.previousReason && <span className="muted small"> (before: {entry.previousReason})</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function CatalogChanges({ revision, changes }: { revision: number; changes: ReplayResponse["catalogChanges"] }) {
  return (
    <div data-testid="catalog-changes">
      <h3>
        Catalog changes since revision {revision} ({changes.length})
      </h3>
      {changes.length === 0 ? (
        <p className="faint small">The catalog has not changed since this decision.</p>
      ) : (
        <div className="table-wrap">
          <table className="compact">
            <thead>
              <tr>
                <th>Revision</th>
                <th>Change</th>
                <th>By</th>
                <th>When</th>
              </tr>
            </thead>
            <tbody>
              {withContentKeys(changes, (change) => `${change.revision} ${change.subjectKind} ${change.subject} ${change.action}`).map(([key, change]) => (
                <tr key={key} data-testid={`catalog-change-${change.subject}`}>
                  <td className="mono small">{change.revision}</td>
                  <td>
                    <span className="badge">{change.subjectKind}</span> <code>{change.subject}</code>{" "}
                    <strong data-testid="change-action">{change.action}</strong>
                  </td>
                  <td className="small">{change.actorName}</td>
                  <td className="small mono">
                    <LocalTime iso={change.createdAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function DiffList({ testId, title, names, tone }: { testId: string; title: string; names: string[]; tone: "added" | "removed" }) {
  return (
    <div data-testid={testId}>
      <h3>
        {title} ({names.length})
      </h3>
      {names.length === 0 ? (
        <p className="faint small">None.</p>
      ) : (
        <ul className="plain-list">
          {names.map((name) => (
            <li key={name} className={`diff-${tone}`} data-testid={`${testId}-${name}`}>
              {tone === "added" ? "+ " : "− "}
              <code>{name}</code>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function ScoreChanges({ changes }: { changes: ReplayResponse["diff"]["scoreChanges"] }) {
  const max = Math.max(0, ...changes.flatMap((change) => [change.before, change.after]));
  return (
    <div data-testid="diff-scores">
      <h3>Score changes ({changes.length})</h3>
      {changes.length === 0 ? (
        <p className="faint small">No score moved.</p>
      ) : (
        <table className="compact">
          <tbody>
            {changes.map((change) => (
              <tr key={change.name} data-testid={`score-change-${change.name}`}>
                <td className="name">{change.name}</td>
                <td style={{ width: "35%" }}>
                  <ScoreBar score={change.before} max={max} />
                  <ScoreBar score={change.after} max={max} />
                </td>
                <td className={`mono small ${change.after > change.before ? "diff-added" : "diff-removed"}`}>
                  {change.before.toFixed(3)} → {change.after.toFixed(3)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

function Outcome({ title, names, testId }: { title: string; names: string[]; testId: string }) {
  return (
    <div data-testid={testId}>
      <h3>{title}</h3>
      {names.length ? (
        names.map((name) => (
          <code key={name} className="tag">
            {name}
          </code>
        ))
      ) : (
        <span className="faint small">nothing</span>
      )}
    </div>
  );
}
