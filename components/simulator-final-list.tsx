"use client";

import { useMemo, useState } from "react";
import { type ToolListResponse, toolNameOf } from "./api-client";
import { useShownCount } from "./shown-count";
import { tokenDifference } from "./simulator-result";
import { VirtualRows } from "./virtual-rows";

type Annotation = ToolListResponse["annotations"][number];

/** The tools the configuration ends with, its token cost (scaled against the other's), and per tool its source and tokens. */
export function FinalList({ result, otherNames, otherTotal }: { result: ToolListResponse; otherNames?: Set<string>; otherTotal?: number }) {
  const [scroller, setScroller] = useState<HTMLElement | null>(null);
  const { names, max, annotations } = useMemo(() => {
    let largest = 1;
    for (const tokens of Object.values(result.tokens.perTool)) largest = Math.max(largest, tokens);
    return { names: result.tools.map(toolNameOf), max: largest, annotations: new Map(result.annotations.map((annotation) => [annotation.name, annotation])) };
  }, [result]);
  const scale = Math.max(result.tokens.total, otherTotal ?? 0, 1);
  return (
    <div className="panel" data-testid="final-list">
      <div className="spread">
        <h2 style={{ margin: 0 }}>
          Final list: <span data-testid="final-count">{names.length}</span> tools
        </h2>
        <span className="muted small">
          provider <b>{result.provider ?? "unknown"}</b> · mode <b data-testid="final-mode">{result.mode}</b> · rev {result.revision}
        </span>
      </div>
      <div className="small" style={{ margin: "8px 0 12px" }}>
        <div className="spread">
          <span>Tokens ({result.format} format)</span>
          <b data-testid="token-total">{result.tokens.total.toLocaleString()}</b>
        </div>
        <div className="bar-track" title={`${result.tokens.total} tokens`}>
          <div className="bar" style={{ width: `${(result.tokens.total / scale) * 100}%` }} />
        </div>
      </div>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus for the keyboard to scroll it (WCAG 2.1.1) */}
      <section className="virtual-scroll final-scroll" ref={setScroller} tabIndex={0} aria-label="Final tool list">
        <table className="fixed-layout">
          <colgroup>
            <col />
            <col style={{ width: 90 }} />
            <col style={{ width: "40%" }} />
          </colgroup>
          <tbody>
            <VirtualRows
              count={names.length}
              scrollElement={scroller}
              columns={3}
              estimateSize={38}
              renderRow={(index, measure) => (
                <FinalListRow
                  key={names[index]}
                  name={names[index]}
                  index={index}
                  measure={measure}
                  annotation={annotations.get(names[index])}
                  onlyHere={otherNames && !otherNames.has(names[index])}
                  tokens={result.tokens.perTool[names[index]] ?? 0}
                  max={max}
                />
              )}
            />
          </tbody>
        </table>
      </section>
    </div>
  );
}

function FinalListRow({
  name,
  index,
  measure,
  annotation,
  onlyHere,
  tokens,
  max,
}: {
  name: string;
  index: number;
  measure: (node: Element | null) => void;
  annotation?: Annotation;
  /** Not in the other configuration's list (undefined when there is none). */
  onlyHere?: boolean;
  tokens: number;
  max: number;
}) {
  return (
    <tr
      ref={measure}
      data-index={index}
      className={onlyHere ? "only-here" : undefined}
      data-testid={`final-${name}`}
      data-only-here={onlyHere ? "true" : undefined}
    >
      <td className="name">
        {name}
        {onlyHere && (
          <span className="badge warn" style={{ marginLeft: 6 }}>
            only here
          </span>
        )}
        {annotation?.needsApproval && (
          <span className="badge warn" style={{ marginLeft: 6 }}>
            asks first
          </span>
        )}
      </td>
      <td>
        <span className={`badge ${annotation?.source ?? ""}`}>{annotation?.source}</span>
      </td>
      <td>
        <div className="row" style={{ flexWrap: "nowrap" }}>
          <div className="bar-track" style={{ flex: 1 }}>
            <div className="bar" style={{ width: `${(tokens / max) * 100}%` }} />
          </div>
          <span className="small mono" style={{ width: 44, textAlign: "right" }}>
            {tokens}
          </span>
        </div>
      </td>
    </tr>
  );
}

/** What this configuration sees that the other does not, and the token difference. */
export function Difference({ result, otherNames, otherTotal }: { result: ToolListResponse; otherNames: Set<string>; otherTotal?: number }) {
  const onlyHere = useMemo(() => result.tools.map(toolNameOf).filter((name) => !otherNames.has(name)), [result, otherNames]);
  const [shown, more] = useShownCount(onlyHere.length);
  return (
    <div className="panel small" data-testid="difference">
      <b>Only here:</b>{" "}
      {onlyHere.length === 0 ? (
        <span className="faint">nothing</span>
      ) : (
        onlyHere.slice(0, shown).map((name) => (
          <span key={name} className="tag" style={{ background: "#fff8e6" }}>
            {name}
          </span>
        ))
      )}
      {more}
      {otherTotal !== undefined && (
        <span className="muted" style={{ marginLeft: 8 }}>
          · {tokenDifference(result.tokens.total, otherTotal)}
        </span>
      )}
    </div>
  );
}
