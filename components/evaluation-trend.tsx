"use client";

import { useQuery } from "@tanstack/react-query";
import { getJson } from "./api-client";
import { comparableRuns, type EvaluationRun, evaluationsUrl, trendPoints } from "./evaluation-runs";
import { EvaluationRunsTable } from "./evaluation-runs-table";
import { MetricTrend, regressions, type TrendPoint } from "./metric-charts";

/** Runs a set's chart reaches back over. */
const TREND_RUNS = 50;

/**
 * The set's past runs comparable with the one shown: their metrics over revisions, whether the
 * last fell, and the runs themselves (`onOpen` shows one). Nothing until a run has finished.
 */
export function EvaluationTrend({
  catalogId,
  trendName,
  shown,
  onOpen,
}: {
  catalogId: string;
  trendName: string;
  shown: EvaluationRun | undefined;
  onOpen: (id: string) => void;
}) {
  const finished = shown !== undefined && shown.status !== "running";
  const history = useQuery({
    queryKey: ["evaluations", catalogId, trendName, finished ? shown.id : "running"],
    enabled: trendName !== "",
    queryFn: ({ signal }) =>
      getJson<{ evaluations: EvaluationRun[] }>(
        `${evaluationsUrl(catalogId)}?${new URLSearchParams({ name: trendName, limit: String(TREND_RUNS) })}`,
        signal,
      ).then((body) => body.evaluations),
  });
  const comparable = comparableRuns(history.data ?? [], shown);
  const points = trendPoints(comparable);
  if (points.length === 0) return null;
  return (
    <section className="panel stack" aria-labelledby="trend-heading" data-testid="trend">
      <h2 id="trend-heading">“{trendName}” over revisions</h2>
      {shown && (
        <p className="muted small">
          Runs with selector {shown.selector} and k {shown.k}.
        </p>
      )}
      <Regressions points={points} />
      <MetricTrend points={points} setName={trendName} />
      <EvaluationRunsTable runs={comparable} onOpen={onOpen} />
    </section>
  );
}

function Regressions({ points }: { points: TrendPoint[] }) {
  const fallen = regressions(points);
  if (fallen.length === 0)
    return (
      <p className="muted small" data-testid="no-regression">
        No metric fell since the run before.
      </p>
    );
  return (
    <div className="error-box" role="status" data-testid="regression">
      Regression since the run before:{" "}
      {fallen
        .map((drop) => `${drop.metric} fell from ${drop.from.toFixed(2)} to ${drop.to.toFixed(2)} (revision ${drop.fromRevision} → ${drop.toRevision})`)
        .join("; ")}
      .
    </div>
  );
}
