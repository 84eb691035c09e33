"use client";

import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { getJson } from "./api-client";
import { type EvaluationRun, evaluationsUrl } from "./evaluation-runs";
import { EvaluationRunsTable } from "./evaluation-runs-table";

/** Recent runs listed, of every set. */
const RECENT_RUNS = 50;

/** The set names of runs, in the order first seen (newest first), each once. */
function setNamesOf(runs: readonly EvaluationRun[]): string[] {
  return [...new Set(runs.map((run) => run.setName))];
}

/**
 * The catalog's recent runs of every set, newest first, to open one of without knowing its set's
 * name; a set can be picked to see only its runs. `refresh` changes when a run starts or finishes.
 */
export function EvaluationRecentRuns({ catalogId, refresh, onOpen }: { catalogId: string; refresh: string; onOpen: (id: string) => void }) {
  const [set, setSet] = useState("");
  const filterId = useId();
  const recent = useQuery({
    queryKey: ["evaluations", catalogId, "recent", set, refresh],
    queryFn: ({ signal }) =>
      getJson<{ evaluations: EvaluationRun[] }>(
        `${evaluationsUrl(catalogId)}?${new URLSearchParams({ limit: String(RECENT_RUNS), ...(set ? { name: set } : {}) })}`,
        signal,
      ).then((body) => body.evaluations),
  });
  // The names to pick from: those of every set's recent runs, kept while one set is picked.
  const all = useQuery({
    queryKey: ["evaluations", catalogId, "recent", "", refresh],
    enabled: set !== "",
    queryFn: ({ signal }) =>
      getJson<{ evaluations: EvaluationRun[] }>(`${evaluationsUrl(catalogId)}?limit=${RECENT_RUNS}`, signal).then((body) => body.evaluations),
  });
  const runs = recent.data ?? [];
  const names = setNamesOf(set ? (all.data ?? runs) : runs);
  if (!set && recent.isSuccess && runs.length === 0) return null;
  return (
    <section className="panel stack" aria-labelledby="recent-runs-heading" data-testid="recent-runs">
      <div className="spread">
        <h2 id="recent-runs-heading">Recent runs</h2>
        <div className="field">
          <label htmlFor={filterId}>Set</label>
          <select id={filterId} value={set} onChange={(event) => setSet(event.target.value)} data-testid="recent-runs-set">
            <option value="">Every set</option>
            {names.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </div>
      </div>
      {recent.error ? (
        <div className="error-box" role="alert">
          Could not load the runs: {recent.error.message}
        </div>
      ) : (
        <EvaluationRunsTable runs={runs} onOpen={onOpen} withSet caption={set ? `Runs of “${set}”, newest first` : "Runs of every set, newest first"} />
      )}
    </section>
  );
}
