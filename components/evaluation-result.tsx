"use client";

import { EvaluationMisses } from "./evaluation-misses";
import type { EvaluationRun } from "./evaluation-runs";
import { MetricBars } from "./metric-charts";

/** A run: its progress while it runs, then its metrics and misses. */
export function RunResult({ catalogId, evaluation }: { catalogId: string; evaluation: EvaluationRun }) {
  if (evaluation.status === "running") {
    return (
      <div className="stack" data-testid="run-progress">
        <progress value={evaluation.progress.done} max={evaluation.progress.total} aria-label="Cases run" />
        <span className="muted small">
          {evaluation.progress.done} of {evaluation.progress.total} cases
        </span>
      </div>
    );
  }
  if (evaluation.status === "failed")
    return (
      <div className="error-box" role="alert" data-testid="run-failed">
        The run failed: {evaluation.error}
      </div>
    );
  return (
    <div className="stack" data-testid="run-result" data-run={evaluation.id}>
      <p className="muted small">
        {evaluation.progress.total} cases · selector {evaluation.selector} · k {evaluation.k} · revision {evaluation.revision}
        {evaluation.fallbacks > 0 && (
          <>
            {" "}
            · <strong>{evaluation.fallbacks} answered by the local selector after the model failed</strong>
          </>
        )}
      </p>
      {evaluation.metrics && <MetricBars metrics={evaluation.metrics} />}
      <EvaluationMisses catalogId={catalogId} misses={evaluation.misses ?? []} k={evaluation.k} />
    </div>
  );
}
