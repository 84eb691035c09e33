"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { type UseFormRegister, useFieldArray, useForm } from "react-hook-form";
import { z } from "zod";
import { rulesBody } from "@/lib/api-schemas";
import type { DefinitionOverride } from "@/lib/rules/overrides";
import type { FieldError } from "@/lib/tools/validate";
import { FieldErrors, groupProblems } from "./field-errors";
import { LabelledInput } from "./labelled-input";
import { defaultsDraftProblem, emptyOverrideDraft, HINT_KEYS, type OverrideDraft, overrideFromDraft, overrideToDraft } from "./rule-drafts";
import { useRulesSave } from "./rules-save";
import { SaveFailure } from "./save-state";

/** The overrides as typed, read into the overrides the server checks with the same schema. */
const hint = z.enum(["", "true", "false"]);
const overrideDraft = z.object({
  tool: z.string(),
  models: z.string(),
  summary: z.string(),
  description: z.string(),
  defaults: z.string().superRefine((text, context) => {
    const message = defaultsDraftProblem(text);
    if (message) context.addIssue({ code: "custom", message });
  }),
  title: z.string(),
  readOnlyHint: hint,
  destructiveHint: hint,
  idempotentHint: hint,
  openWorldHint: hint,
}) satisfies z.ZodType<OverrideDraft>;
const overridesForm = z.object({ overrides: z.array(overrideDraft.transform(overrideFromDraft)) }).pipe(rulesBody.pick({ overrides: true }).required());

export function OverridesForm({ catalogId, initial, toolNames }: { catalogId: string; initial: DefinitionOverride[]; toolNames: string[] }) {
  const form = useForm({ defaultValues: { overrides: initial.map(overrideToDraft) }, resolver: zodResolver(overridesForm), shouldFocusError: false });
  const rows = useFieldArray({ control: form.control, name: "overrides" });
  const { pending, failure, problems, submit } = useRulesSave(catalogId, form, "Overrides saved");
  const add = () => rows.append(emptyOverrideDraft(toolNames[0] ?? ""), { shouldFocus: false });
  return (
    <section className="panel stack" data-testid="overrides">
      <div>
        <h2 style={{ margin: 0 }}>Definition overrides</h2>
        <p className="muted small">
          Replace a tool&apos;s summary or description, its parameters&apos; defaults or its MCP annotations, for every model or only for model patterns (e.g. a
          clearer description for one family). Overrides stay when a tool&apos;s source redefines it (an MCP server&apos;s re-sync): they apply on top.
        </p>
      </div>
      {rows.fields.length === 0 && <p className="faint">No overrides.</p>}
      {rows.fields.map((row, index) => (
        <OverrideCard key={row.id} index={index} register={form.register} onRemove={() => rows.remove(index)} problems={problems} />
      ))}
      <SaveFailure failure={failure} what="the overrides" onRetry={submit} pending={pending} />
      <div className="row end">
        <button type="button" onClick={add} data-testid="add-override">
          Add override
        </button>
        <button type="button" className="primary" disabled={pending} onClick={submit} data-testid="save-overrides">
          Save overrides
        </button>
      </div>
    </section>
  );
}

function OverrideCard({
  index,
  register,
  onRemove,
  problems,
}: {
  index: number;
  register: UseFormRegister<{ overrides: OverrideDraft[] }>;
  onRemove: () => void;
  problems: FieldError[];
}) {
  const { problems: overrideProblems, invalid } = groupProblems(problems, `overrides.${index}`, `override-${index}`);
  return (
    <div className="card" data-testid={`override-${index}`}>
      <div className="grid-2">
        <LabelledInput label="Tool" registration={register(`overrides.${index}.tool`)} list="tool-names" className="mono" invalid={invalid("tool")} />
        <LabelledInput
          label="Only for models"
          registration={register(`overrides.${index}.models`)}
          placeholder="empty = every model"
          commaSeparated
          invalid={invalid("models")}
        />
      </div>
      <LabelledInput label="Summary" registration={register(`overrides.${index}.summary`)} invalid={invalid("summary")} />
      <div className="field">
        <label>
          Description
          <textarea rows={3} {...register(`overrides.${index}.description`)} style={{ marginTop: 4 }} {...invalid("description")} />
        </label>
      </div>
      <div className="field">
        <label>
          Parameter defaults <span className="hint">JSON object, e.g. {'{"limit": 25}'}</span>
          <textarea
            rows={2}
            className="mono"
            spellCheck={false}
            {...register(`overrides.${index}.defaults`)}
            style={{ marginTop: 4 }}
            {...invalid("defaults")}
          />
        </label>
      </div>
      <fieldset className="field">
        <legend>MCP annotations</legend>
        <LabelledInput label="Title" registration={register(`overrides.${index}.title`)} placeholder="its source's" invalid={invalid("annotations")} />
        <div className="row">
          {HINT_KEYS.map((key) => (
            <label key={key} className="small">
              {key}{" "}
              <select {...register(`overrides.${index}.${key}`)}>
                <option value="">its source&apos;s</option>
                <option value="true">true</option>
                <option value="false">false</option>
              </select>
            </label>
          ))}
        </div>
      </fieldset>
      <FieldErrors problems={overrideProblems} fieldId={`override-${index}`} testId={`override-errors-${index}`} />
      <div className="row end">
        <button type="button" className="small-button danger" onClick={onRemove}>
          Remove
        </button>
      </div>
    </div>
  );
}
