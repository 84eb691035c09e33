import type { EvaluationMiss } from "@/lib/evaluation/run";
import type { Metrics, TrendPoint } from "./metric-charts";

export interface EvaluationRun {
  id: string;
  revision: number;
  setName: string;
  selector: string;
  k: number;
  status: "running" | "done" | "failed";
  progress: { done: number; total: number };
  metrics: Metrics | null;
  fallbacks: number;
  misses?: EvaluationMiss[] | null;
  error: string | null;
  createdAt: string;
}

export const evaluationsUrl = (catalogId: string) => `/api/catalogs/${encodeURIComponent(catalogId)}/evaluations`;

/** The finished runs `shown` compares with: runs compare only with runs of the same selector and k. */
export function comparableRuns(history: readonly EvaluationRun[], shown: EvaluationRun | undefined): EvaluationRun[] {
  return history.filter((evaluation) => evaluation.status === "done" && (!shown || (evaluation.selector === shown.selector && evaluation.k === shown.k)));
}

/** The chart's points, oldest first, from runs listed newest first. */
export function trendPoints(runs: readonly EvaluationRun[]): TrendPoint[] {
  return runs
    .filter((evaluation) => evaluation.metrics)
    .reverse()
    .map((evaluation) => ({ id: evaluation.id, revision: evaluation.revision, metrics: evaluation.metrics! }));
}
