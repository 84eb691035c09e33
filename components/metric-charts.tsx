"use client";

import { useId } from "react";
import { EVALUATION_METRICS, type EvaluationMetric } from "@/lib/evaluation/metrics";

export type Metrics = Record<EvaluationMetric, number>;

/** One colour and dash per metric, so the lines differ without colour too. */
const STYLES: Record<EvaluationMetric, { color: string; dash?: string }> = {
  "recall@1": { color: "#2f5bea" },
  "recall@5": { color: "#1f8a4c", dash: "6 3" },
  "recall@10": { color: "#a86400", dash: "2 3" },
  "ndcg@10": { color: "#8a3ab9", dash: "8 3 2 3" },
};

const format = (value: number) => value.toFixed(2);

/** The four metrics of a run as bars from 0 to 1, each value written beside its bar. */
export function MetricBars({ metrics }: { metrics: Metrics }) {
  const titleId = useId();
  const rowHeight = 28;
  const labelWidth = 90;
  const barWidth = 300;
  const height = EVALUATION_METRICS.length * rowHeight;
  return (
    <svg
      role="img"
      aria-labelledby={titleId}
      viewBox={`0 0 ${labelWidth + barWidth + 50} ${height}`}
      width="100%"
      style={{ maxWidth: 520 }}
      data-testid="metric-bars"
    >
      <title id={titleId}>{`Metrics of this run: ${EVALUATION_METRICS.map((name) => `${name} ${format(metrics[name])}`).join(", ")}`}</title>
      {EVALUATION_METRICS.map((name, index) => {
        const y = index * rowHeight;
        return (
          <g key={name} data-testid={`metric-${name}`}>
            <text x={0} y={y + 18} fontSize={13} fill="var(--ink)">
              {name}
            </text>
            <rect x={labelWidth} y={y + 6} width={barWidth} height={16} rx={3} fill="var(--line)" />
            <rect x={labelWidth} y={y + 6} width={Math.max(0, Math.min(1, metrics[name])) * barWidth} height={16} rx={3} fill={STYLES[name].color} />
            <text x={labelWidth + barWidth + 8} y={y + 18} fontSize={13} fill="var(--ink)" data-testid={`metric-value-${name}`}>
              {format(metrics[name])}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

export interface TrendPoint {
  id: string;
  revision: number;
  metrics: Metrics;
}

/** The metrics that fell from the run before the last to the last, with both values. */
export function regressions(points: readonly TrendPoint[]): { metric: EvaluationMetric; from: number; to: number; fromRevision: number; toRevision: number }[] {
  if (points.length < 2) return [];
  const [previous, last] = points.slice(-2);
  return EVALUATION_METRICS.filter((name) => last.metrics[name] < previous.metrics[name] - 1e-9).map((metric) => ({
    metric,
    from: previous.metrics[metric],
    to: last.metrics[metric],
    fromRevision: previous.revision,
    toRevision: last.revision,
  }));
}

/** One line per metric over a set's runs, oldest first, each run labelled with its catalog revision. */
export function MetricTrend({ points, setName }: { points: readonly TrendPoint[]; setName: string }) {
  const titleId = useId();
  const width = 560;
  const height = 200;
  const left = 36;
  const right = 12;
  const top = 10;
  const bottom = 30;
  const plotWidth = width - left - right;
  const plotHeight = height - top - bottom;
  const x = (index: number) => left + (points.length === 1 ? plotWidth / 2 : (index / (points.length - 1)) * plotWidth);
  const y = (value: number) => top + (1 - Math.max(0, Math.min(1, value))) * plotHeight;
  return (
    <figure className="stack" style={{ margin: 0 }}>
      <svg role="img" aria-labelledby={titleId} viewBox={`0 0 ${width} ${height}`} width="100%" style={{ maxWidth: 640 }} data-testid="metric-trend">
        <title id={titleId}>{`Metrics of set "${setName}" over ${points.length} runs, by catalog revision`}</title>
        {[0, 0.25, 0.5, 0.75, 1].map((tick) => (
          <g key={tick}>
            <line x1={left} x2={width - right} y1={y(tick)} y2={y(tick)} stroke="var(--line)" />
            <text x={left - 6} y={y(tick) + 4} fontSize={11} textAnchor="end" fill="var(--muted)">
              {tick.toFixed(2)}
            </text>
          </g>
        ))}
        {points.map((point, index) => (
          <text key={point.id} x={x(index)} y={height - 10} fontSize={11} textAnchor="middle" fill="var(--muted)">
            r{point.revision}
          </text>
        ))}
        {EVALUATION_METRICS.map((name) => (
          <g key={name}>
            <polyline
              fill="none"
              stroke={STYLES[name].color}
              strokeWidth={2}
              strokeDasharray={STYLES[name].dash}
              points={points.map((point, index) => `${x(index)},${y(point.metrics[name])}`).join(" ")}
            />
            {points.map((point, index) => (
              <circle key={point.id} cx={x(index)} cy={y(point.metrics[name])} r={3} fill={STYLES[name].color}>
                <title>{`${name} ${format(point.metrics[name])} at revision ${point.revision}`}</title>
              </circle>
            ))}
          </g>
        ))}
      </svg>
      <figcaption className="row small" style={{ flexWrap: "wrap", gap: 12 }}>
        {EVALUATION_METRICS.map((name) => (
          <span key={name} className="row" style={{ gap: 4 }}>
            <svg width={24} height={8} aria-hidden="true">
              <line x1={0} x2={24} y1={4} y2={4} stroke={STYLES[name].color} strokeWidth={2} strokeDasharray={STYLES[name].dash} />
            </svg>
            {name}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}

export interface Bar {
  label: string;
  value: number;
  /** A share of the value drawn over its bar in the warning colour, e.g. the errors among the calls. */
  part?: number;
  /** The value as written beside its bar. */
  text: string;
}

const LABEL_CHARS = 30;

/** Horizontal bars scaled to the largest value, each with its label and value; the same drawing as MetricBars for any figures. */
export function BarChart({ title, bars, testId }: { title: string; bars: readonly Bar[]; testId: string }) {
  const titleId = useId();
  const rowHeight = 24;
  const labelWidth = 210;
  const barWidth = 260;
  const max = Math.max(0, ...bars.map((bar) => bar.value));
  const scale = (value: number) => (max > 0 ? (Math.max(0, value) / max) * barWidth : 0);
  return (
    <svg
      role="img"
      aria-labelledby={titleId}
      viewBox={`0 0 ${labelWidth + barWidth + 90} ${Math.max(1, bars.length) * rowHeight}`}
      width="100%"
      style={{ maxWidth: 600 }}
      data-testid={testId}
    >
      <title id={titleId}>{`${title}: ${bars.map((bar) => `${bar.label} ${bar.text}`).join(", ")}`}</title>
      {bars.map((bar, index) => {
        const y = index * rowHeight;
        const label = bar.label.length > LABEL_CHARS ? `${bar.label.slice(0, LABEL_CHARS - 1)}…` : bar.label;
        return (
          <g key={bar.label} data-testid={`${testId}-bar`}>
            <text x={0} y={y + 16} fontSize={12} fill="var(--ink)">
              <title>{bar.label}</title>
              {label}
            </text>
            <rect x={labelWidth} y={y + 5} width={barWidth} height={14} rx={3} fill="var(--line)" />
            <rect x={labelWidth} y={y + 5} width={scale(bar.value)} height={14} rx={3} fill={STYLES["recall@1"].color} />
            {bar.part !== undefined && bar.part > 0 && <rect x={labelWidth} y={y + 5} width={scale(bar.part)} height={14} rx={3} fill="var(--danger)" />}
            <text x={labelWidth + barWidth + 8} y={y + 16} fontSize={12} fill="var(--ink)">
              {bar.text}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
