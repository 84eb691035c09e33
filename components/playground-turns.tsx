"use client";

import type { DynamicToolUIPart } from "ai";
import { Fragment, useEffect, useRef } from "react";
import type { PlaygroundUIMessage, ToolSearchRecord } from "@/lib/playground/messages";
import { CodeBlock } from "./code-block";
import { type ChatFailure, type ChatTurn, simulatedCall } from "./playground-chat";
import { PreselectionView } from "./playground-preselection";

/** A failed request of the chat, with what resends it. */
type Failure = ChatFailure & { retry: () => void };

interface Props {
  catalogId: string;
  turns: ChatTurn[];
  busy: boolean;
  hasMainModel: boolean;
  /** The last request failed: the last turn says where, and offers Retry. */
  failure?: Failure;
}

/** The chat's turns, the last one marked while it streams or when it failed; before the first, what a message will show. */
export function PlaygroundTurns({ catalogId, turns, busy, hasMainModel, failure }: Props) {
  return (
    <>
      {turns.length === 0 && !busy && (
        <div className="panel empty" data-testid="playground-empty">
          <strong>Ask something an agent of this catalog would be asked</strong>
          Each message shows the preselection, the turn&apos;s tool set and {hasMainModel ? "the main model's answer" : "what the main model would get"}.
        </div>
      )}
      {turns.map((turn, index) => (
        <TurnView
          key={turn.key}
          catalogId={catalogId}
          number={index + 1}
          turn={turn}
          streaming={busy && index === turns.length - 1}
          hasMainModel={hasMainModel}
          failure={index === turns.length - 1 ? failure : undefined}
        />
      ))}
    </>
  );
}

function TurnView({
  catalogId,
  number,
  turn,
  streaming,
  hasMainModel,
  failure,
}: {
  catalogId: string;
  number: number;
  turn: ChatTurn;
  streaming: boolean;
  hasMainModel: boolean;
  failure?: Failure;
}) {
  return (
    <article className="panel stack turn" data-testid={`turn-${number}`}>
      <div className="spread">
        <b>Turn {number}</b>
        {streaming && <span className="badge warn">working…</span>}
      </div>
      <div className="bubble user" data-testid="user-message">
        {turn.message}
      </div>
      {turn.details ? (
        <PreselectionView catalogId={catalogId} details={turn.details} />
      ) : (
        streaming && (
          <p className="muted small" data-testid="preselecting">
            Preselecting…
          </p>
        )
      )}
      {turn.answer && <AnswerView parts={turn.answer.parts} />}
      {turn.stopped && !streaming && (
        <p className="small muted" data-testid="stopped-marker">
          <span className="badge off">Stopped</span> The answer was stopped here; what came before is kept.
        </p>
      )}
      {failure && <FailureView failure={failure} />}
      {!hasMainModel && turn.details && (
        <div className="small muted" data-testid="no-main-model">
          No main model is configured: this is the tool set it would get. Try ToolSearch below as it would.
        </div>
      )}
    </article>
  );
}

/**
 * Where the turn's last request failed, and Retry, which sends it again. Brought into sight when it
 * appears: the page may have scrolled while the request was out, and the sticky composer covers the bottom.
 */
function FailureView({ failure }: { failure: Failure }) {
  const box = useRef<HTMLDivElement>(null);
  // In braces: scrollIntoView returns a promise in newer browsers, which React would take for a cleanup.
  useEffect(() => {
    box.current?.scrollIntoView({ block: "center" });
  }, []);
  return (
    <div ref={box} className="error-box small row spread" role="alert" data-testid="turn-failure" data-kind={failure.kind}>
      <span>{failure.message}</span>
      <button type="button" onClick={failure.retry} data-testid="retry">
        Retry
      </button>
    </div>
  );
}

/** A tool call, and its result or error once there is one. `refused`: the tool was not in the step's tool set. */
function ToolCallView({ part, refused }: { part: DynamicToolUIPart; refused: boolean }) {
  return (
    <>
      <div className="tool-call small" data-testid={`tool-call-${part.toolName}`}>
        <b>calls</b> <code>{part.toolName}</code> {refused && <span className="badge off">not in its tool set</span>}
        <CodeBlock label={`Input of ${part.toolName}`}>{JSON.stringify(part.input, null, 2)}</CodeBlock>
      </div>
      {part.state === "output-available" && (
        <div className="tool-result small" data-testid="tool-result">
          {simulatedCall(part) ? <span className="badge warn">simulated result</span> : <span className="badge ok">live result</span>}{" "}
          <code>{part.toolName}</code>
          <CodeBlock label={`Result of ${part.toolName}`}>{typeof part.output === "string" ? part.output : JSON.stringify(part.output, null, 2)}</CodeBlock>
        </div>
      )}
      {part.state === "output-error" && (
        <div className="error-box small">
          <code>{part.toolName}</code>: {part.errorText}
        </div>
      )}
    </>
  );
}

function ToolSearchView({ search }: { search: ToolSearchRecord }) {
  return (
    <div className="tool-search small" data-testid="tool-search-event">
      <b>ToolSearch</b> <code>{search.query}</code> <span className="badge">{search.path}</span>
      {search.selector && <span className="faint"> by {search.selector}</span>}
      <div>
        Found:{" "}
        {search.found.length === 0 ? (
          <span className="faint">nothing</span>
        ) : (
          search.found.map((name) => (
            <span key={name} className="tag origin-found">
              {name}
            </span>
          ))
        )}
      </div>
      {search.rejected.map((rejection) => (
        <div key={rejection.name} className="muted">
          rejected <code>{rejection.name}</code>: {rejection.reason}
        </div>
      ))}
    </div>
  );
}

/** The answer's parts in order: text, tool calls, ToolSearch verifications, and a step's tool set when ToolSearch changed it. */
function AnswerView({ parts }: { parts: PlaygroundUIMessage["parts"] }) {
  let stepTools: string[] | undefined;
  const blocks = parts.map((part, index) => {
    let block: React.ReactNode = null;
    if (part.type === "text" && part.text) {
      block = (
        <div className="bubble assistant" data-testid="assistant-text">
          {part.text}
        </div>
      );
    } else if (part.type === "dynamic-tool") {
      block = <ToolCallView part={part} refused={stepTools !== undefined && !stepTools.includes(part.toolName)} />;
    } else if (part.type === "data-tool-search") {
      block = <ToolSearchView search={part.data} />;
    } else if (part.type === "data-tool-set") {
      const changed = stepTools !== undefined && part.data.activeTools.some((name) => !stepTools?.includes(name));
      stepTools = part.data.activeTools;
      if (changed)
        block = (
          <div className="small faint" data-testid="next-step-tools">
            Available from this step on: {part.data.activeTools.join(", ")}
          </div>
        );
    }
    // biome-ignore lint/suspicious/noArrayIndexKey: an answer's parts are only appended to or updated in place, so a part's position is its identity
    return block && <Fragment key={index}>{block}</Fragment>;
  });
  return <div className="stack">{blocks}</div>;
}
