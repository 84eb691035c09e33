"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { checkCasesAction } from "@/app/catalogs/[catalog]/evaluate/actions";
import { casesOfLabelledSet, MAX_EVALUATION_CASES, type LabelledCase, type UnknownNames } from "@/lib/evaluation/cases";
import type { EvaluationMiss, MissTool } from "@/lib/evaluation/run";
import { getJson, postJson } from "./api-client";
import { useCan } from "./catalog-access";
import { JsonFileButton } from "./json-file-button";
import { MetricBars, MetricTrend, regressions, type Metrics, type TrendPoint } from "./metric-charts";
import { LocalTime } from "./local-time";
import { SelectorPicker } from "./selector-picker";

/** A case as the editor holds it: the expected tools as typed, comma-separated. */
interface DraftCase {
  /** The row's own key, as rows are added and removed. */
  key: number;
  id?: string;
  query: string;
  expected: string;
}

interface EvaluationRun {
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

/** Rows the editor shows; every case is run. */
const SHOWN_CASES = 200;
const SHOWN_MISSES = 100;
/** Runs a set's chart reaches back over. */
const TREND_RUNS = 50;

const evaluationsUrl = (catalogId: string) => `/api/catalogs/${encodeURIComponent(catalogId)}/evaluations`;

let nextDraftKey = 0;

function newDraft(labelled: LabelledCase = { query: "", expected: [] }): DraftCase {
  return { key: nextDraftKey++, ...(labelled.id === undefined ? {} : { id: labelled.id }), query: labelled.query, expected: labelled.expected.join(", ") };
}

function toCase(draft: DraftCase): LabelledCase {
  const expected = draft.expected
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  return { ...(draft.id === undefined ? {} : { id: draft.id }), query: draft.query.trim(), expected };
}

export function EvaluatePage({ catalogId, selectors }: { catalogId: string; selectors: string[] }) {
  const canRun = useCan("write");
  const queryClient = useQueryClient();
  const [drafts, setDrafts] = useState<DraftCase[]>(() => [newDraft()]);
  const [setName, setSetName] = useState("hand-written");
  const [selector, setSelector] = useState(selectors[0]);
  const [k, setK] = useState(10);
  const [unknown, setUnknown] = useState<UnknownNames[]>([]);
  const [problem, setProblem] = useState<string>();
  const [runId, setRunId] = useState<string>();

  const cases = drafts.map(toCase).filter((labelled) => labelled.query || labelled.expected.length > 0);

  const check = async (next: LabelledCase[]) => {
    const result = await checkCasesAction(catalogId, next);
    if (!result.ok) {
      setProblem(result.error.message);
      setUnknown([]);
      return false;
    }
    setProblem(undefined);
    setUnknown(result.data);
    return result.data.length === 0;
  };

  const importFile = async (file: File) => {
    try {
      const imported = casesOfLabelledSet(JSON.parse(await file.text()));
      setDrafts(imported.map((labelled) => newDraft(labelled)));
      setSetName(file.name.replace(/\.json$/i, ""));
      await check(imported);
    } catch (error) {
      setProblem(`${file.name} is not a labelled set ({ "cases": [{ "query", "expected": [names] }] }): ${(error as Error).message}`);
    }
  };

  const leaveOutUnknown = () => {
    const left = new Set(unknown.map((entry) => entry.index));
    setDrafts(drafts.filter((_, index) => !left.has(index)));
    setUnknown([]);
  };

  const run = useMutation({
    mutationFn: async () => {
      if (!(await check(cases))) throw new Error("Fix the cases first.");
      return postJson<{ evaluation: EvaluationRun }>(evaluationsUrl(catalogId), { cases, k, selector, name: setName.trim() || undefined });
    },
    onSuccess: ({ evaluation }) => setRunId(evaluation.id),
  });

  const current = useQuery({
    queryKey: ["evaluation", catalogId, runId],
    enabled: runId !== undefined,
    queryFn: ({ signal }) => getJson<{ evaluation: EvaluationRun }>(`${evaluationsUrl(catalogId)}/${runId}`, signal).then((body) => body.evaluation),
    refetchInterval: (query) => (query.state.data?.status === "running" ? 500 : false),
  });
  const shown = current.data;
  const trendName = shown?.setName ?? setName.trim();
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
  // Runs compare only with runs of the same selector and k.
  const comparable = (history.data ?? []).filter(
    (evaluation) => evaluation.status === "done" && (!shown || (evaluation.selector === shown.selector && evaluation.k === shown.k)),
  );
  const points: TrendPoint[] = comparable
    .filter((evaluation) => evaluation.metrics)
    .reverse()
    .map((evaluation) => ({ id: evaluation.id, revision: evaluation.revision, metrics: evaluation.metrics! }));

  const setDraft = (index: number, change: Partial<DraftCase>) => setDrafts(drafts.map((draft, at) => (at === index ? { ...draft, ...change } : draft)));

  return (
    <div className="stack">
      <section className="panel stack" aria-labelledby="cases-heading">
        <div className="spread">
          <div>
            <h2 id="cases-heading">Labelled cases</h2>
            <p className="muted small">
              Requests and the tools each needs. Import a labelled set (the <code>bench/data</code> format:{" "}
              <code>{'{ "cases": [{ "query", "expected": [names] }] }'}</code>; its tools are not read) or write cases here. At most{" "}
              {MAX_EVALUATION_CASES.toLocaleString("en")} per run.
            </p>
          </div>
          <JsonFileButton inputTestId="import-cases" onFile={(file) => void importFile(file)}>
            Import labelled set…
          </JsonFileButton>
        </div>
        {problem && (
          <div className="error-box" role="alert" data-testid="cases-problem">
            {problem}
          </div>
        )}
        {unknown.length > 0 && (
          <div className="error-box stack" role="alert" data-testid="unknown-tools">
            <span>
              {unknown.length} {unknown.length === 1 ? "case names" : "cases name"} tools this catalog does not have:
            </span>
            <ul>
              {unknown.slice(0, 20).map((entry) => (
                <li key={entry.index}>
                  case {entry.index + 1}
                  {entry.id ? ` (${entry.id})` : ""}: {entry.names.join(", ")}
                </li>
              ))}
            </ul>
            <button type="button" onClick={leaveOutUnknown} data-testid="leave-out-unknown">
              Leave these cases out
            </button>
          </div>
        )}
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">Request</th>
                <th scope="col">Expected tools (comma-separated)</th>
                <th scope="col">
                  <span className="faint">Remove</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {drafts.slice(0, SHOWN_CASES).map((draft, index) => (
                <tr key={draft.key} data-testid={`case-${index}`}>
                  <td className="muted small">{index + 1}</td>
                  <td>
                    <input
                      aria-label={`Request of case ${index + 1}`}
                      value={draft.query}
                      onChange={(event) => setDraft(index, { query: event.target.value })}
                      style={{ width: "100%" }}
                    />
                  </td>
                  <td>
                    <input
                      aria-label={`Expected tools of case ${index + 1}`}
                      value={draft.expected}
                      onChange={(event) => setDraft(index, { expected: event.target.value })}
                      className="mono"
                      style={{ width: "100%" }}
                    />
                  </td>
                  <td>
                    <button
                      type="button"
                      className="ghost small-button"
                      aria-label={`Remove case ${index + 1}`}
                      onClick={() => setDrafts(drafts.filter((_, at) => at !== index))}
                    >
                      ×
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {drafts.length > SHOWN_CASES && (
          <p className="muted small">
            Showing the first {SHOWN_CASES} of {drafts.length.toLocaleString("en")} cases; every case is run.
          </p>
        )}
        <div className="toolbar">
          <button type="button" onClick={() => setDrafts([...drafts, newDraft()])} data-testid="add-case">
            Add case
          </button>
          <span className="muted small" data-testid="case-count">
            {cases.length.toLocaleString("en")} cases
          </span>
        </div>
      </section>

      <section className="panel stack" aria-labelledby="run-heading">
        <h2 id="run-heading">Run</h2>
        <div className="toolbar">
          <label className="row small">
            Set name
            <input value={setName} onChange={(event) => setSetName(event.target.value)} maxLength={100} data-testid="set-name" />
          </label>
          <SelectorPicker selectors={selectors} value={selector} onChange={setSelector} testId="selector" />
          <label className="row small" title="How many tools count as chosen: an expected tool outside the first k is a miss">
            k
            <input type="number" min={1} max={50} value={k} onChange={(event) => setK(Number(event.target.value))} style={{ width: 64 }} data-testid="k" />
          </label>
          {canRun ? (
            <button
              type="button"
              className="primary"
              disabled={run.isPending || cases.length === 0 || shown?.status === "running"}
              onClick={() => run.mutate()}
              data-testid="run-evaluation"
            >
              {run.isPending ? "Starting…" : "Run evaluation"}
            </button>
          ) : (
            <span className="muted small">Editors run evaluations; you can read their results.</span>
          )}
        </div>
        {selector !== selectors[0] && <p className="muted small">A model selector makes one call per case: slow, and paid for.</p>}
        {run.error && (
          <div className="error-box" role="alert" data-testid="run-error">
            {run.error.message}
          </div>
        )}
        {shown && <RunResult catalogId={catalogId} evaluation={shown} />}
      </section>

      {points.length > 0 && (
        <section className="panel stack" aria-labelledby="trend-heading" data-testid="trend">
          <h2 id="trend-heading">“{trendName}” over revisions</h2>
          {shown && (
            <p className="muted small">
              Runs with selector {shown.selector} and k {shown.k}.
            </p>
          )}
          <Regressions points={points} />
          <MetricTrend points={points} setName={trendName} />
          <RunTable
            runs={comparable}
            onOpen={(id) => {
              setRunId(id);
              void queryClient.invalidateQueries({ queryKey: ["evaluation", catalogId, id] });
            }}
          />
        </section>
      )}
    </div>
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

function RunResult({ catalogId, evaluation }: { catalogId: string; evaluation: EvaluationRun }) {
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
  const misses = evaluation.misses ?? [];
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
      <h3>Misses ({misses.length})</h3>
      {misses.length === 0 ? (
        <p className="muted small" data-testid="no-misses">
          Every case had its expected tools among the first {evaluation.k}.
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
                <MissTools catalogId={catalogId} title={`Chosen (first ${evaluation.k})`} tools={miss.chosen} testId="miss-chosen" />
              </div>
            </div>
          ))}
          {misses.length > SHOWN_MISSES && <p className="muted small">And {misses.length - SHOWN_MISSES} more: the API has them all.</p>}
        </div>
      )}
    </div>
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
            <span className="muted small">{tool.rank === null ? "not ranked" : `rank ${tool.rank} · score ${tool.score?.toFixed(3)}`}</span>
            <div className="small">{tool.summary || <span className="faint">No summary.</span>}</div>
          </li>
        ))}
      </ul>
    </div>
  );
}

function RunTable({ runs, onOpen }: { runs: EvaluationRun[]; onOpen: (id: string) => void }) {
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
