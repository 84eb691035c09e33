"use client";

import { Controller, useFormContext, useWatch } from "react-hook-form";
import { useCan } from "./catalog-access";
import { casesOf, type EvaluationForm } from "./evaluation-form";
import { FieldErrors } from "./field-errors";
import { SelectorPicker } from "./selector-picker";

const SETTINGS = ["name", "selector", "k"] as const;

/**
 * A run's settings and its button; submitting runs the page's form (`onRun`). `starting`: the run is
 * being asked for; `running`: the run shown has not finished.
 */
export function EvaluationRunForm({
  selectors,
  starting,
  running,
  onRun,
}: {
  selectors: string[];
  starting: boolean;
  running: boolean;
  onRun: (form: EvaluationForm) => void;
}) {
  const canRun = useCan("write");
  const { control, register, handleSubmit, formState } = useFormContext<EvaluationForm>();
  const drafts = useWatch({ control, name: "cases" });
  const selector = useWatch({ control, name: "selector" });
  const problems = SETTINGS.flatMap((field) => {
    const message = formState.errors[field]?.message;
    return message ? [{ field, message }] : [];
  });
  return (
    <>
      {/* noValidate: the schema's problems show below, not as the browser's bubbles. */}
      <form className="toolbar" onSubmit={handleSubmit(onRun)} noValidate>
        <label className="row small">
          Set name
          <input {...register("name")} maxLength={100} data-testid="set-name" />
        </label>
        <Controller
          control={control}
          name="selector"
          render={({ field }) => <SelectorPicker selectors={selectors} value={field.value} onChange={field.onChange} testId="selector" />}
        />
        <label className="row small" title="How many tools count as chosen: an expected tool outside the first k is a miss">
          k
          <input
            type="number"
            min={1}
            max={50}
            {...register("k", { valueAsNumber: true })}
            aria-invalid={formState.errors.k ? true : undefined}
            style={{ width: 64 }}
            data-testid="k"
          />
        </label>
        {/* The first selector is the local one, the only one that learns. */}
        {selector === selectors[0] && (
          <label
            className="row small"
            title="Rank with what the catalog learned from use, as preselection does now; the run is recorded as selector local+learned, beside the runs without it"
          >
            <input type="checkbox" {...register("learning")} data-testid="evaluation-learning" />
            With what was learned from use
          </label>
        )}
        {canRun ? (
          <button type="submit" className="primary" disabled={starting || casesOf(drafts).length === 0 || running} data-testid="run-evaluation">
            {starting ? "Starting…" : "Run evaluation"}
          </button>
        ) : (
          <span className="muted small">Editors run evaluations; you can read their results.</span>
        )}
      </form>
      <FieldErrors problems={problems} testId="run-settings-errors" />
      {selector !== selectors[0] && <p className="muted small">A model selector makes one call per case: slow, and paid for.</p>}
    </>
  );
}
