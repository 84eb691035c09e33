"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useMemo, useState } from "react";
import { useFieldArray, useForm } from "react-hook-form";
import { z } from "zod";
import { rulesBody } from "@/lib/api-schemas";
import type { ModelRule } from "@/lib/rules/model-rules";
import type { KnownModel } from "@/lib/rules/providers";
import { FieldErrors, splitList } from "./field-errors";
import { ModelRuleCard } from "./model-rule-card";
import { modelRuleFieldLabel, relabelMessage } from "./model-rule-problems";
import { ModelRulesPreview } from "./model-rules-preview";
import { type ModelRuleDraft, ruleFromDraft, ruleToDraft } from "./rule-drafts";
import { useRulesSave } from "./rules-save";
import { SaveFailure } from "./save-state";

/** The model rules as typed, read into the rules the server checks with the same schema. */
const modelRulesForm = z
  .object({
    modelRules: z.array(
      z
        .object({ id: z.string(), name: z.string(), include: z.string(), exclude: z.string(), enable: z.string(), disable: z.string() })
        .transform(ruleFromDraft),
    ),
  })
  .pipe(rulesBody.pick({ modelRules: true }).required());

const newRule = (): ModelRuleDraft => ({ id: `rule-${Date.now().toString(36)}`, name: "New rule", include: "*", exclude: "", enable: "", disable: "" });

interface Props {
  catalogId: string;
  initial: ModelRule[];
  knownModels: KnownModel[];
  toolNames: string[];
  agents: string[];
}

export function ModelRulesForm({ catalogId, initial, knownModels, toolNames, agents }: Props) {
  const form = useForm({ defaultValues: { modelRules: initial.map(ruleToDraft) }, resolver: zodResolver(modelRulesForm), shouldFocusError: false });
  const rows = useFieldArray({ control: form.control, name: "modelRules" });
  // watch, not useWatch: read with the rows in the same render, an added rule is there at once.
  const drafts = form.watch("modelRules");
  const [probe, setProbe] = useState("");
  const { pending, failure, problems, submit } = useRulesSave(catalogId, form, "Model rules saved");
  const tools = useMemo(() => ({ names: toolNames, known: new Set(toolNames) }), [toolNames]);
  const rules = () => form.getValues("modelRules").map(ruleFromDraft);
  const label = (field: string) => modelRuleFieldLabel(field, drafts.map(ruleFromDraft));
  const putName = (index: number) => (field: "enable" | "disable", position: number, name: string) => {
    const names = splitList(form.getValues(`modelRules.${index}.${field}`));
    names[position] = name;
    form.setValue(`modelRules.${index}.${field}`, names.join(", "), { shouldDirty: true });
  };
  return (
    <section className="panel stack" data-testid="model-rules">
      <div className="spread">
        <div>
          <h2 style={{ margin: 0 }}>Model rules</h2>
          <p className="muted small">
            Applied in order; a later rule&apos;s decision about a tool overrides an earlier one. A pattern without <code>*</code> matches anywhere in the model
            id; with <code>*</code> it must match the whole id. Case-insensitive.
          </p>
        </div>
        <div className="field" style={{ minWidth: 240 }}>
          <label htmlFor="probe-model">Try a model id</label>
          <input
            id="probe-model"
            list="known-models-rules"
            value={probe}
            onChange={(event) => setProbe(event.target.value)}
            placeholder="e.g. gpt-5-mini"
            className="example-placeholder"
            data-testid="probe-model"
          />
          <datalist id="known-models-rules">
            {knownModels.map((model) => (
              <option key={model.id} value={model.id} />
            ))}
          </datalist>
        </div>
      </div>
      {rows.fields.map((row, index) => (
        <ModelRuleCard
          key={row.id}
          index={index}
          count={rows.fields.length}
          rule={ruleFromDraft(drafts[index])}
          register={form.register}
          onMove={(by) => rows.move(index, index + by)}
          onRemove={() => rows.remove(index)}
          knownModels={knownModels}
          probe={probe.trim()}
          problems={problems}
          tools={tools}
          onUseName={putName(index)}
          label={label}
        />
      ))}
      <FieldErrors problems={problems.filter((problem) => !/^modelRules\.\d/.test(problem.field))} label={label} />
      <ModelRulesPreview catalogId={catalogId} rules={rules} model={probe.trim()} agents={agents} label={(message) => relabelMessage(message, label)} />
      <SaveFailure
        failure={failure && { ...failure, message: relabelMessage(failure.message, label) }}
        what="the model rules"
        onRetry={submit}
        pending={pending}
      />
      <div className="row end">
        <button type="button" onClick={() => rows.append(newRule(), { shouldFocus: false })}>
          Add rule
        </button>
        <button type="button" className="primary" disabled={pending} onClick={submit} data-testid="save-model-rules">
          Save model rules
        </button>
      </div>
    </section>
  );
}
