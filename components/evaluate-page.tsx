"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { FormProvider, type UseFormReturn, useForm, useWatch } from "react-hook-form";
import { getJson, postJson } from "./api-client";
import { EvaluationCases, useCaseCheck } from "./evaluation-cases";
import { browserStorage, loadDraft, saveDraft } from "./evaluation-draft";
import { draftOf, type EvaluationForm, evaluationFormSchema, rowsOf, runBody } from "./evaluation-form";
import { RunResult } from "./evaluation-result";
import { EvaluationRecentRuns } from "./evaluation-recent-runs";
import { EvaluationRunForm } from "./evaluation-run-form";
import { type EvaluationRun, evaluationsUrl } from "./evaluation-runs";
import { EvaluationTrend } from "./evaluation-trend";

/**
 * Keeps the page's form and the run shown in the browser per catalog (evaluation-draft.ts): read
 * back once mounted (a selector the server no longer offers gives way to its first), written on
 * every change after that.
 */
function useKeptDraft(catalogId: string, selectors: string[], form: UseFormReturn<EvaluationForm>, runId: string | undefined, setRunId: (id?: string) => void) {
  const [restored, setRestored] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: read back once per catalog, not on every change of the form
  useEffect(() => {
    const draft = loadDraft(browserStorage(), catalogId);
    if (draft) {
      form.reset({ ...draft.form, selector: selectors.includes(draft.form.selector) ? draft.form.selector : selectors[0] });
      setRunId(draft.runId);
    }
    setRestored(true);
  }, [catalogId]);
  useEffect(() => {
    if (!restored) return;
    const save = () => saveDraft(browserStorage(), catalogId, { form: form.getValues(), ...(runId ? { runId } : {}) });
    save();
    const subscription = form.watch(save);
    return () => subscription.unsubscribe();
  }, [restored, catalogId, runId, form]);
}

/**
 * The evaluation page: the cases and the run's settings in one form (evaluation-form.ts), the run
 * asked for and followed until it finishes, the set's past runs and the catalog's recent ones.
 * The form and the run shown are kept for a revisit.
 */
export function EvaluatePage({ catalogId, selectors }: { catalogId: string; selectors: string[] }) {
  const queryClient = useQueryClient();
  const form = useForm<EvaluationForm>({
    resolver: zodResolver(evaluationFormSchema),
    defaultValues: { cases: [draftOf()], name: "hand-written", selector: selectors[0], k: 10, learning: false },
  });
  const caseCheck = useCaseCheck(catalogId);
  const [runId, setRunId] = useState<string>();
  useKeptDraft(catalogId, selectors, form, runId, setRunId);

  const run = useMutation({
    mutationFn: async (values: EvaluationForm) => {
      const body = runBody(values);
      if (!(await caseCheck.check(body.cases, rowsOf(values.cases)))) throw new Error("Fix the cases first.");
      return postJson<{ evaluation: EvaluationRun }>(evaluationsUrl(catalogId), body);
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
  const setName = useWatch({ control: form.control, name: "name" });
  const open = (id: string) => {
    setRunId(id);
    void queryClient.invalidateQueries({ queryKey: ["evaluation", catalogId, id] });
  };

  return (
    <FormProvider {...form}>
      <div className="stack">
        <EvaluationCases caseCheck={caseCheck} />
        <section className="panel stack" aria-labelledby="run-heading">
          <h2 id="run-heading">Run</h2>
          <EvaluationRunForm selectors={selectors} starting={run.isPending} running={shown?.status === "running"} onRun={(values) => run.mutate(values)} />
          {run.error && (
            <div className="error-box" role="alert" data-testid="run-error">
              {run.error.message}
            </div>
          )}
          {shown && <RunResult catalogId={catalogId} evaluation={shown} />}
        </section>
        <EvaluationTrend catalogId={catalogId} trendName={shown?.setName ?? setName.trim()} shown={shown} onOpen={open} />
        <EvaluationRecentRuns catalogId={catalogId} refresh={`${shown?.id}:${shown?.status}`} onOpen={open} />
      </div>
    </FormProvider>
  );
}
