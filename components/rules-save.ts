"use client";

import { useRouter } from "next/navigation";
import type { FieldValues, UseFormReturn } from "react-hook-form";
import { toast } from "sonner";
import { saveRulesAction } from "@/app/catalogs/[catalog]/rules/actions";
import type { CatalogRules } from "@/lib/rules/catalog-rules";
import { formProblems } from "./form-problems";
import { useSaveAction, useUnsavedChangesWarning } from "./save-state";

/**
 * Saves the part of the rules one form edits (its schema's output is that part): the form's own
 * problems and the server's show together. A saved draft becomes the one unsaved edits are told
 * from, keeping what was typed meanwhile; leaving with edits unsaved asks first.
 */
export function useRulesSave<Values extends FieldValues>(catalogId: string, form: UseFormReturn<Values, unknown, Partial<CatalogRules>>, message: string) {
  const router = useRouter();
  const { pending, failure, save } = useSaveAction();
  useUnsavedChangesWarning(form.formState.isDirty);
  const submit = form.handleSubmit((changes) => {
    // A copy: the form changes its values in place as the person types on.
    const sent = structuredClone(form.getValues());
    save(
      () => saveRulesAction(catalogId, changes),
      () => {
        form.reset(sent, { keepValues: true });
        toast.success(message);
        router.refresh();
      },
    );
  });
  const problems = [...formProblems(form.formState.errors), ...(failure?.problems ?? [])];
  return { pending, failure, problems, submit: () => void submit() };
}
