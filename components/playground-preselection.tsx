"use client";

import { useQueries } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import type { TurnDetails } from "@/lib/playground/messages";
import type { TurnToolEntry } from "@/lib/selection/turn";
import { fetchTool, queryKeys } from "./api-client";
import { useShownCount } from "./shown-count";

const ORIGIN_LABEL: Record<TurnToolEntry["origin"], string> = { base: "base", preselected: "preselected", history: "history", entry: "ToolSearch entry" };

/** The candidates a selector saw, with their summaries: each tool read on its own, only those listed. */
function CandidateList({ catalogId, names }: { catalogId: string; names: string[] }) {
  const [shown, more] = useShownCount(names.length, 20);
  const listed = names.slice(0, shown);
  const tools = useQueries({
    // A tool deleted since the turn has no summary to show: no retries.
    queries: listed.map((name) => ({ queryKey: queryKeys.tool(catalogId, name), queryFn: () => fetchTool(catalogId, name), retry: false })),
  });
  return (
    <>
      <ul className="compact">
        {listed.map((name, index) => (
          <li key={name}>
            <code>{name}</code> <span className="muted">{tools[index].data?.summary}</span>
          </li>
        ))}
      </ul>
      {more}
    </>
  );
}

/** A turn's two steps side by side: what the preselection chose, and the tool set the turn got. */
export function PreselectionView({ catalogId, details }: { catalogId: string; details: TurnDetails }) {
  return (
    <div className="grid-2" style={{ alignItems: "start" }}>
      <SelectionColumn catalogId={catalogId} details={details} />
      <ToolSetColumn details={details} />
    </div>
  );
}

/** The selector, its candidates, the tools it chose with their scores, and those it rejected. */
function SelectionColumn({ catalogId, details }: { catalogId: string; details: TurnDetails }) {
  const [candidatesOpen, setCandidatesOpen] = useState(false);
  const max = Math.max(...details.selected.map((tool) => tool.score), 1e-9);
  return (
    <div className="stack" data-testid="preselection">
      <div className="small">
        <b>1. Preselection</b> by <code data-testid="selector">{details.selector}</code>
        {details.fallback && (
          <span className="badge warn" style={{ marginLeft: 6 }} title={details.fallback.cause}>
            fallback from {details.fallback.from}: {details.fallback.cause}
          </span>
        )}
        <span className="faint"> · {details.latencyMs.toFixed(1)} ms · </span>
        <Link href={`/catalogs/${catalogId}/decisions/${details.decisionId}`}>decision</Link>
      </div>
      <details className="small" onToggle={(event) => setCandidatesOpen(event.currentTarget.open)}>
        <summary>
          It saw {details.candidates.length} tools as names and summaries only ({details.tokens.candidates.toLocaleString()} tokens)
        </summary>
        {candidatesOpen && <CandidateList catalogId={catalogId} names={details.candidates} />}
      </details>
      <table className="small">
        <tbody>
          {details.selected.map((tool) => (
            <tr key={tool.name} data-testid={`selected-${tool.name}`}>
              <td className="name">{tool.name}</td>
              <td style={{ width: "45%" }}>
                <div className="bar-track">
                  <div className="bar" style={{ width: `${(tool.score / max) * 100}%` }} />
                </div>
              </td>
              <td className="mono" style={{ width: 60, textAlign: "right" }}>
                {tool.score.toFixed(2)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {details.selected.length === 0 && <p className="faint small">Nothing matched.</p>}
      {details.rejected.length > 0 && (
        <div className="small" data-testid="preselection-rejected">
          <b>Rejected:</b>
          {details.rejected.map((rejection) => (
            <div key={rejection.name}>
              <code>{rejection.name}</code> <span className="muted">{rejection.reason}</span>
            </div>
          ))}
        </div>
      )}
    </div>
  );
}

/** The turn's tool set: its size in tokens against the whole visible list, its tools by where they came from, and what was left out. */
function ToolSetColumn({ details }: { details: TurnDetails }) {
  const byOrigin = (["base", "preselected", "history", "entry"] as const).map((origin) => ({
    origin,
    names: details.toolSet.filter((entry) => entry.origin === origin).map((entry) => entry.name),
  }));
  return (
    <div className="stack" data-testid="tool-set">
      <div className="small">
        <b>2. The turn&apos;s tool set</b>: {details.toolSet.length} tools
      </div>
      <div className="small">
        <div className="spread">
          <span>{details.tokens.toolSet.toLocaleString()} tokens</span>
          <span className="faint">of {details.tokens.visible.toLocaleString()} for the whole visible list</span>
        </div>
        <div className="bar-track">
          <div className="bar" style={{ width: `${(details.tokens.toolSet / Math.max(details.tokens.visible, 1)) * 100}%` }} />
        </div>
      </div>
      {byOrigin.map(({ origin, names }) =>
        names.length === 0 ? null : (
          <div key={origin} className="small">
            <span className="muted">{ORIGIN_LABEL[origin]}: </span>
            {names.map((name) => (
              <span key={name} className={`tag origin-${origin}`} data-testid={`set-${origin}-${name}`}>
                {name}
              </span>
            ))}
          </div>
        ),
      )}
      {details.dropped.length > 0 && <div className="small faint">Left out: {details.dropped.map((drop) => `${drop.name} (${drop.reason})`).join("; ")}</div>}
    </div>
  );
}
