"use client";

import { useMemo } from "react";
import type { ToolListResponse } from "./api-client";
import { withContentKeys } from "./content-keys";
import { useShownCount } from "./shown-count";
import { whyAnswer } from "./simulator-result";

/** Answers "why does this model not see X?" from the trace, without reading all of it; the question is kept in the URL. */
export function WhyMissing({
  result,
  model,
  agent,
  question,
  onAsk,
}: {
  result: ToolListResponse;
  model: string;
  agent: string;
  question: string;
  onAsk: (question: string) => void;
}) {
  const query = question.trim();
  return (
    <div className="panel stack">
      <div className="row">
        <label htmlFor={`why-${model}-${agent}`}>
          Why does {model} / {agent} not see…
        </label>
        <input
          id={`why-${model}-${agent}`}
          value={question}
          onChange={(event) => onAsk(event.target.value)}
          placeholder="tool name, e.g. edit"
          data-testid="why-input"
          spellCheck={false}
        />
      </div>
      {query && (
        <div data-testid="why-answer">
          <WhyAnswerText result={result} name={query} />
        </div>
      )}
    </div>
  );
}

function WhyAnswerText({ result, name }: { result: ToolListResponse; name: string }) {
  const answer = whyAnswer(result, name);
  if (answer.kind === "removed")
    return (
      <span>
        <code>{name}</code> was removed at <b>{answer.stage}</b>: {answer.reason}
      </span>
    );
  if (answer.kind === "present")
    return (
      <span>
        <code>{name}</code> is in the final list{answer.changes.length ? `; changed: ${answer.changes.join("; ")}` : "."}
      </span>
    );
  return (
    <span className="muted">
      There is no tool named <code>{name}</code> in this catalog.
    </span>
  );
}

/** What each stage of the pipeline removed and changed, and how many tools it left. */
export function Trace({ result }: { result: ToolListResponse }) {
  return (
    <div className="panel" data-testid="trace">
      <h2>Stage by stage</h2>
      <ol className="timeline">
        {result.trace.map((entry) => (
          <TraceStage key={entry.stage} entry={entry} />
        ))}
      </ol>
    </div>
  );
}

function TraceStage({ entry }: { entry: ToolListResponse["trace"][number] }) {
  const notes = useMemo(
    () => [...entry.removed.map((note) => ({ ...note, kind: "removed" as const })), ...entry.changed.map((note) => ({ ...note, kind: "changed" as const }))],
    [entry],
  );
  const [shown, more] = useShownCount(notes.length);
  return (
    <li data-testid={`stage-${entry.stage}`}>
      <div className="spread">
        <b>{entry.stage}</b>
        <span className="muted small">
          {entry.removed.length > 0 && <span className="badge off">−{entry.removed.length}</span>}{" "}
          {entry.changed.length > 0 && <span className="badge warn">~{entry.changed.length}</span>} {entry.remaining} left
        </span>
      </div>
      {/* Keyed by what each note says: a tool can have more than one (an override applied in part, and why the rest is not). */}
      {withContentKeys(notes.slice(0, shown), (note) => `${note.kind} ${note.name} ${note.reason}`).map(([key, note]) =>
        note.kind === "removed" ? (
          <div key={key} className="small" data-testid="trace-removed">
            <code>−{note.name}</code> <span className="muted">{note.reason}</span>
          </div>
        ) : (
          <div key={key} className="small" data-testid="trace-changed">
            <code>~{note.name}</code> <span className="muted">{note.reason}</span>
          </div>
        ),
      )}
      {more}
    </li>
  );
}
