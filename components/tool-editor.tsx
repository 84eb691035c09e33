"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { type FieldPath, type Resolver, type UseFormReturn, type UseFormSetError, useForm } from "react-hook-form";
import { toast } from "sonner";
import { z } from "zod";
import { createToolAction, updateToolAction } from "@/app/catalogs/[catalog]/tools/actions";
import type { ToolRecord } from "@/db/queries/tools";
import type { FieldError } from "@/lib/tools/validate";
import { queryKeys } from "./api-client";
import { formProblems } from "./form-problems";
import { SaveFailure, useSaveAction, useUnsavedChangesWarning } from "./save-state";
import { problemPath, readToolForm, type ToolFormValues, toolFormValues } from "./tool-draft";
import { ToolFields } from "./tool-fields";

/** The tool as typed, read into the draft the server takes and checked as the server checks it. */
const toolForm = z
  .object({ name: z.string(), summary: z.string(), description: z.string(), inputSchema: z.string(), tags: z.string() })
  .transform((values, context) => {
    const { draft, problems } = readToolForm(values);
    // The draft has only the form's fields, so each problem has its place in the form.
    for (const problem of problems) context.addIssue({ code: "custom", message: problem.message, path: problemPath(problem.field)! });
    return draft;
  });

const checkToolForm = zodResolver(toolForm);

/**
 * A field whose problems all lie below it ("inputSchema.type") is marked as having some: checking
 * a field as it is edited, React Hook Form keeps only errors it finds on the field itself.
 */
const resolver: Resolver<ToolFormValues, unknown, Record<string, unknown>> = async (values, context, options) => {
  const result = await checkToolForm(values, context, options);
  for (const error of Object.values(result.errors)) if (error && !error.type) error.type = "below";
  return result;
};

/** Files the server's refusal at the fields it names, where editing a field clears its own. */
function showRefusal(setError: UseFormSetError<ToolFormValues>, problems: FieldError[]) {
  const messages = new Map<string, string[]>();
  for (const problem of problems) {
    const path = problemPath(problem.field)?.join(".");
    if (path) messages.set(path, [...(messages.get(path) ?? []), problem.message]);
  }
  for (const [path, texts] of messages) setError(path as FieldPath<ToolFormValues>, { type: "server", message: texts[0], types: { server: texts } });
}

/** Saves the form's draft once it passes its checks: a refusal shows at the fields it names, a success becomes the saved state. */
function useToolSave(catalogId: string, tool: ToolRecord | undefined, form: UseFormReturn<ToolFormValues, unknown, Record<string, unknown>>) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const { pending, failure, save } = useSaveAction();
  const submit = form.handleSubmit(
    (draft) => {
      // A copy: the form changes its values in place as the person types on.
      const sent = structuredClone(form.getValues());
      save(
        () => (tool ? updateToolAction(catalogId, tool.name, draft) : createToolAction(catalogId, draft)),
        async (saved) => {
          toast.success(tool ? `Saved ${saved.name}` : `Created ${saved.name}`);
          form.reset(sent, { keepValues: true });
          await queryClient.invalidateQueries({ queryKey: queryKeys.tools(catalogId) });
          await queryClient.invalidateQueries({ queryKey: queryKeys.audit(catalogId, saved.name) });
          const target = `/catalogs/${catalogId}/tools/${encodeURIComponent(saved.name)}`;
          if (!tool || saved.name !== tool.name) router.push(target);
          else router.refresh();
        },
        (error) => showRefusal(form.setError, error.problems),
      );
    },
    (errors) => {
      const count = formProblems(errors).length;
      toast.error(`Fix ${count} problem${count > 1 ? "s" : ""} before saving`);
    },
  );
  return { pending, failure, submit };
}

/**
 * Creates a tool, or edits `tool`. Each field's problems show once it has been edited or a save
 * tried (as the server would word them); Ctrl+Enter saves.
 */
export function ToolEditor({ catalogId, tool }: { catalogId: string; tool?: ToolRecord }) {
  const router = useRouter();
  const form = useForm({
    defaultValues: toolFormValues(tool),
    resolver,
    mode: "onChange",
    criteriaMode: "all",
    shouldFocusError: false,
  });
  useUnsavedChangesWarning(form.formState.isDirty);
  const { pending, failure, submit } = useToolSave(catalogId, tool, form);

  return (
    <form
      className="panel stack"
      data-testid="tool-editor"
      noValidate
      onSubmit={(event) => void submit(event)}
      onKeyDown={(event) => {
        if (event.key === "Enter" && (event.metaKey || event.ctrlKey)) {
          event.preventDefault();
          void submit();
        }
      }}
    >
      <ToolFields form={form} isNew={!tool} />
      <SaveFailure failure={failure} what={tool ? tool.name : "the new tool"} onRetry={() => void submit()} pending={pending} />
      <div className="spread">
        <span className="faint small">
          <span className="kbd">Ctrl</span> + <span className="kbd">Enter</span> saves
        </span>
        <div className="row">
          <button type="button" className="ghost" onClick={() => router.back()}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={pending} data-testid="save-tool">
            {pending ? "Saving…" : tool ? "Save changes" : "Create tool"}
          </button>
        </div>
      </div>
    </form>
  );
}
