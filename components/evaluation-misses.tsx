import Link from "next/link";
import type { EvaluationMiss, MissTool } from "@/lib/evaluation/run";

const SHOWN_MISSES = 100;

/** The cases whose expected tools were not all among the first `k` chosen, each with both lists. */
export function EvaluationMisses({ catalogId, misses, k }: { catalogId: string; misses: EvaluationMiss[]; k: number }) {
  return (
    <>
      <h3>Misses ({misses.length})</h3>
      {misses.length === 0 ? (
        <p className="muted small" data-testid="no-misses">
          Every case had its expected tools among the first {k}.
        </p>
      ) : (
        <div className="stack">
          {misses.slice(0, SHOWN_MISSES).map((miss) => (
            <div key={miss.case} className="panel stack" data-testid={`miss-${miss.case}`}>
              <div>
                <span className="muted small">
                  case {miss.case + 1}
                  {miss.id ? ` (${miss.id})` : ""}:{" "}
                </span>
                <strong data-testid="miss-query">{miss.query}</strong>
              </div>
              <div className="grid-2">
                <MissTools catalogId={catalogId} title="Expected" tools={miss.expected} testId="miss-expected" />
                <MissTools catalogId={catalogId} title={`Chosen (first ${k})`} tools={miss.chosen} testId="miss-chosen" />
              </div>
            </div>
          ))}
          {misses.length > SHOWN_MISSES && <p className="muted small">And {misses.length - SHOWN_MISSES} more: the API has them all.</p>}
        </div>
      )}
    </>
  );
}

function MissTools({ catalogId, title, tools, testId }: { catalogId: string; title: string; tools: MissTool[]; testId: string }) {
  return (
    <div data-testid={testId}>
      <h4 className="small">{title}</h4>
      <ul className="stack" style={{ listStyle: "none", padding: 0 }}>
        {tools.map((tool) => (
          <li key={tool.name}>
            <Link href={`/catalogs/${catalogId}/tools/${encodeURIComponent(tool.name)}`} className="mono">
              {tool.name}
            </Link>{" "}
            {tool.notOffered ? (
              <span className="badge off" data-testid="miss-not-offered">
                {tool.notOffered}
              </span>
            ) : (
              <span className="muted small">{tool.rank === null ? "not ranked" : `rank ${tool.rank} · score ${tool.score?.toFixed(3)}`}</span>
            )}
            <div className="small">{tool.summary || <span className="faint">No summary.</span>}</div>
          </li>
        ))}
      </ul>
    </div>
  );
}
