import type { EvaluationRun } from "./evaluation-runs";
import { LocalTime } from "./local-time";

/** A set's past runs, newest first, with their metrics; `onOpen` shows one. */
export function EvaluationRunsTable({ runs, onOpen }: { runs: EvaluationRun[]; onOpen: (id: string) => void }) {
  return (
    <div className="table-wrap">
      <table>
        <caption className="muted small" style={{ textAlign: "left" }}>
          Runs of this set, newest first
        </caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Revision</th>
            <th scope="col">Selector</th>
            <th scope="col">k</th>
            <th scope="col">recall@1</th>
            <th scope="col">recall@5</th>
            <th scope="col">recall@10</th>
            <th scope="col">nDCG@10</th>
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
              <td>{run.revision}</td>
              <td className="mono small">{run.selector}</td>
              <td>{run.k}</td>
              <td>{run.metrics?.["recall@1"].toFixed(2)}</td>
              <td>{run.metrics?.["recall@5"].toFixed(2)}</td>
              <td>{run.metrics?.["recall@10"].toFixed(2)}</td>
              <td>{run.metrics?.["ndcg@10"].toFixed(2)}</td>
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
