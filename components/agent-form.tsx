"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useRouter } from "next/navigation";
import { useForm } from "react-hook-form";
import { toast } from "sonner";
import { z } from "zod";
import { saveAgentAction } from "@/app/catalogs/[catalog]/agents/actions";
import { agentBody } from "@/lib/api-schemas";
import { AGENT_MODES, type Agent, PERMISSION_ACTIONS } from "@/lib/rules/agents";
import type { FieldError } from "@/lib/tools/validate";
import { type AgentFormState, agentFromDraft, agentToDraft } from "./agent-draft";
import { AgentPermissions } from "./agent-permissions";
import { FieldErrors, errorsUnder, invalidProps } from "./field-errors";
import { formProblems } from "./form-problems";
import { SaveFailure, useSaveAction, useUnsavedChangesWarning } from "./save-state";

/** What permission patterns can name, to flag those naming nothing. */
export type KnownNames = { toolNames: string[]; agentNames: string[] };

/** The agent as typed, read into the agent the server checks with the same schema. */
const agentForm = z
  .object({
    name: z.string(),
    mode: z.enum(AGENT_MODES),
    description: z.string(),
    baseTools: z.string(),
    permissions: z.array(z.object({ pattern: z.string(), action: z.enum(PERMISSION_ACTIONS) })),
  })
  .transform(agentFromDraft)
  .pipe(agentBody);

/** Creates an agent, or edits `previousName`; `onDone` once saved or cancelled. */
export function AgentForm({
  catalogId,
  agent,
  previousName,
  known,
  onDone,
}: {
  catalogId: string;
  agent: Agent;
  previousName?: string;
  known: KnownNames;
  onDone: () => void;
}) {
  const router = useRouter();
  const { pending, failure, save } = useSaveAction();
  const form = useForm({ defaultValues: agentToDraft(agent), resolver: zodResolver(agentForm), shouldFocusError: false });
  useUnsavedChangesWarning(form.formState.isDirty);
  const problems = [...formProblems(form.formState.errors), ...(failure?.problems ?? [])];
  const fieldId = (field: string) => `agent-${field}-${agent.name}`;

  const submit = form.handleSubmit((draft) =>
    save(
      () => saveAgentAction(catalogId, draft, previousName),
      (saved) => {
        toast.success(`Saved agent ${saved.name}`);
        onDone();
        router.refresh();
      },
    ),
  );

  return (
    <form className="card stack" data-testid={`agent-form-${agent.name || "new"}`} onSubmit={(event) => void submit(event)}>
      <AgentDetails form={form} problems={problems} fieldId={fieldId} />
      <AgentPermissions form={form} known={known} problems={problems} fieldId={fieldId} />
      <FieldErrors problems={problems.filter((problem) => !/^(name|description|baseTools|permissions)/.test(problem.field))} />
      <SaveFailure failure={failure} what={previousName ? `agent ${previousName}` : "the new agent"} onRetry={() => void submit()} pending={pending} />
      <div className="row end">
        <button type="button" className="ghost" onClick={onDone}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={pending} data-testid="save-agent">
          Save agent
        </button>
      </div>
    </form>
  );
}

/** The agent's name, mode, description and base tools, each with its problems. */
function AgentDetails({ form, problems, fieldId }: { form: AgentFormState; problems: FieldError[]; fieldId: (field: string) => string }) {
  const nameProblems = errorsUnder(problems, "name");
  const descriptionProblems = errorsUnder(problems, "description");
  const baseToolProblems = errorsUnder(problems, "baseTools");
  return (
    <>
      <div className="row">
        <div className="field" style={{ flex: 1 }}>
          <label htmlFor={fieldId("name")}>Name</label>
          <input
            id={fieldId("name")}
            {...form.register("name")}
            className="mono"
            // biome-ignore lint/a11y/noAutofocus: the form opens when the user asks to create or edit an agent: the focus goes where they are about to type
            autoFocus
            required
            {...invalidProps(fieldId("name"), nameProblems)}
          />
          <FieldErrors problems={nameProblems} fieldId={fieldId("name")} />
        </div>
        <div className="field">
          <label htmlFor={fieldId("mode")}>Mode</label>
          <select id={fieldId("mode")} {...form.register("mode")}>
            {AGENT_MODES.map((option) => (
              <option key={option}>{option}</option>
            ))}
          </select>
        </div>
      </div>
      <div className="field">
        <label htmlFor={fieldId("description")}>
          Description <span className="hint">subagents: shown in the task tool&apos;s description</span>
        </label>
        <textarea id={fieldId("description")} rows={2} {...form.register("description")} {...invalidProps(fieldId("description"), descriptionProblems)} />
        <FieldErrors problems={descriptionProblems} fieldId={fieldId("description")} />
      </div>
      <div className="field">
        <label htmlFor={fieldId("base")}>
          Base tools <span className="hint">always on for every turn; comma-separated</span>
        </label>
        <input id={fieldId("base")} {...form.register("baseTools")} spellCheck={false} {...invalidProps(fieldId("base"), baseToolProblems)} />
        <FieldErrors problems={baseToolProblems} fieldId={fieldId("base")} />
      </div>
    </>
  );
}
