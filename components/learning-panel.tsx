"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { resetLearningAction, setLearningAction } from "@/app/catalogs/[catalog]/usage/actions";
import type { LearningStatus } from "@/app/_services/learning";
import { getJson } from "./api-client";
import { useCan } from "./catalog-access";
import { ConfirmButton } from "./confirm-button";

const learningKey = (catalogId: string) => ["learning", catalogId] as const;
const learningUrl = (catalogId: string) => `/api/catalogs/${encodeURIComponent(catalogId)}/learning`;

function weightText(status: LearningStatus): string {
  if (!status.calibrated) return `A full learned match weighs ${status.weight} × the best description match until there are enough reports to calibrate it.`;
  if (status.weight === 0)
    return "Calibrated on this catalog's reports: they did not predict later requests better than the descriptions, so selection leaves them aside.";
  return `Calibrated on this catalog's reports: a full learned match weighs ${status.weight} × the best description match.`;
}

/** The Usage page's panel on learning from use: what was learned, the switch, and reset. */
export function LearningPanel({ catalogId }: { catalogId: string }) {
  const queryClient = useQueryClient();
  const canEdit = useCan("write");
  const status = useQuery({ queryKey: learningKey(catalogId), queryFn: ({ signal }) => getJson<LearningStatus>(learningUrl(catalogId), signal) });
  const update = useMutation({
    mutationFn: async (change: { enabled: boolean } | "reset") => {
      const result = change === "reset" ? await resetLearningAction(catalogId) : await setLearningAction(catalogId, change);
      if (!result.ok) throw new Error(result.error.message);
      return result.data;
    },
    onSuccess: (data, change) => {
      queryClient.setQueryData(learningKey(catalogId), data);
      void queryClient.invalidateQueries({ queryKey: ["learned", catalogId] });
      toast.success(
        change === "reset" ? "Forgot everything this catalog learned from use." : data.enabled ? "Learning from use is on." : "Learning from use is off.",
      );
    },
    onError: (error) => toast.error(error.message),
  });
  const data = status.data;
  return (
    <section className="panel stack" aria-labelledby="learning-heading" data-testid="learning-panel">
      <div className="row" style={{ justifyContent: "space-between", alignItems: "center" }}>
        <h3 id="learning-heading">Learning from use</h3>
        {data && (
          <button
            type="button"
            role="switch"
            className="switch"
            aria-checked={data.enabled}
            aria-label="Learn from use"
            disabled={!canEdit || update.isPending}
            title={canEdit ? undefined : "Editors can turn learning on and off"}
            onClick={() => update.mutate({ enabled: !data.enabled })}
            data-testid="learning-switch"
          />
        )}
      </div>
      <p className="muted small">
        The local selector learns which tools served which requests: calls through the MCP gateway and the playground, and reports sent to{" "}
        <code>POST /api/catalogs/{catalogId}/usage</code>. What it learned ranks tools beside their descriptions, never offers a tool the pipeline denies, and
        fades with a half-life of 30 days.
      </p>
      {status.error && <p className="error">Could not read what was learned: {status.error.message}</p>}
      {data && (
        <>
          <p data-testid="learning-status">
            {data.enabled ? "On" : "Off"} · {data.reports.toLocaleString("en")} {data.reports === 1 ? "report" : "reports"} about{" "}
            {data.tools.toLocaleString("en")} {data.tools === 1 ? "tool" : "tools"}
          </p>
          {data.reports > 0 && <p className="muted small">{weightText(data)}</p>}
          {canEdit && data.reports > 0 && (
            <div>
              <ConfirmButton
                label="Forget what was learned"
                title="Forget what this catalog learned?"
                body={`The ${data.reports.toLocaleString("en")} reports are deleted; selection ranks by the tools' descriptions alone until new ones arrive.`}
                confirmLabel="Forget"
                onConfirm={() => update.mutate("reset")}
                className="ghost"
                confirmClassName="danger"
                testId="learning-reset"
                confirmTestId="learning-reset-confirm"
              />
            </div>
          )}
        </>
      )}
    </section>
  );
}

interface LearnedWords {
  enabled: boolean;
  reports: number;
  words: { word: string; weight: number }[];
}

/** A tool page's panel: the words of the requests that led to the tool, weighted as they count now. */
export function LearnedForTool({ catalogId, name }: { catalogId: string; name: string }) {
  const learned = useQuery({
    queryKey: ["learned", catalogId, name],
    queryFn: ({ signal }) => getJson<LearnedWords>(`${learningUrl(catalogId)}?tool=${encodeURIComponent(name)}`, signal),
  });
  const data = learned.data;
  return (
    <section className="panel stack" aria-labelledby="learned-heading" data-testid="learned-words">
      <h2 id="learned-heading">Learned from use</h2>
      {learned.error && <p className="error">Could not read what was learned: {learned.error.message}</p>}
      {data && data.words.length === 0 && (
        <p className="muted small">
          Nothing yet: requests that this tool served (gateway and playground calls, reports to the usage API) teach the selector their words.
        </p>
      )}
      {data && data.words.length > 0 && (
        <>
          <p className="muted small">
            {data.reports < 1 ? "Less than one report" : `${data.reports.toFixed(1)} reports`} (older ones count less)
            {data.enabled ? "" : "; learning is off for this catalog, so selection does not use them"}. The words of the requests that led to it:
          </p>
          <ul className="row" style={{ listStyle: "none", padding: 0, margin: 0, gap: 6 }}>
            {data.words.map(({ word, weight }) => (
              <li key={word} className="badge" title={`weight ${weight.toFixed(2)}`}>
                {word}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
