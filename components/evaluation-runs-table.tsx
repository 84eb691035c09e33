import type { EvaluationRun } from "./evaluation-runs";
import { LocalTime } from "./local-time";

const METRICS = ["recall@1", "recall@5", "recall@10", "ndcg@10"] as const;
const METRIC_HEADINGS: Record<(typeof METRICS)[number], string> = {
  "recall@1": "recall@1",
  "recall@5": "recall@5",
  "recall@10": "recall@10",
  "ndcg@10": "nDCG@10",
};

/** Runs, newest first, with their metrics (or why they have none); `onOpen` shows one; `withSet` adds each run's set. */
export function EvaluationRunsTable({
  runs,
  onOpen,
  withSet = false,
  caption = "Runs of this set, newest first",
}: {
  runs: EvaluationRun[];
  onOpen: (id: string) => void;
  withSet?: boolean;
  caption?: string;
}) {
  return (
    <div className="table-wrap">
      <table>
        <caption className="muted small" style={{ textAlign: "left" }}>
          {caption}
        </caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            {withSet && <th scope="col">Set</th>}
            <th scope="col">Revision</th>
            <th scope="col">Selector</th>
            <th scope="col">k</th>
            {METRICS.map((metric) => (
              <th key={metric} scope="col">
                {METRIC_HEADINGS[metric]}
              </th>
            ))}
            <th scope="col">
              <span className="faint">Open</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {runs.map((run) => (
            <tr key={run.id} data-testid={`run-row-${run.id}`}>
              <td className="small">
                <LocalTime iso={run.createdAt} />
              </td>
              {withSet && <td data-testid="run-set">{run.setName}</td>}
              <td>{run.revision}</td>
              <td className="mono small">{run.selector}</td>
              <td>{run.k}</td>
              {run.metrics ? (
                METRICS.map((metric) => <td key={metric}>{run.metrics?.[metric].toFixed(2)}</td>)
              ) : (
                <td colSpan={METRICS.length} className="muted small">
                  {run.status}
                </td>
              )}
              <td>
                <button type="button" className="ghost small-button" onClick={() => onOpen(run.id)}>
                  Show
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
