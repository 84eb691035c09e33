"use client";

import { useWatch, type UseFormReturn } from "react-hook-form";
import { toast } from "sonner";
import { SUMMARY_MAX } from "@/lib/tools/types";
import { DESCRIPTION_MAX, type FieldError } from "@/lib/tools/validate";
import { withContentKeys } from "./content-keys";
import { errorsId, invalidProps } from "./field-errors";
import { formProblems } from "./form-problems";
import { byField, type ToolFormValues } from "./tool-draft";

/** The tool editor's fields, each with its problems: its own and the server's. */
export function ToolFields({ form, isNew }: { form: UseFormReturn<ToolFormValues, unknown, Record<string, unknown>>; isNew: boolean }) {
  const [summary, description] = useWatch({ control: form.control, name: ["summary", "description"] });
  const shown = byField(formProblems(form.formState.errors));
  const formatSchema = () => {
    try {
      form.setValue("inputSchema", JSON.stringify(JSON.parse(form.getValues("inputSchema")), null, 2), { shouldDirty: true });
    } catch {
      toast.error("The schema is not valid JSON yet");
    }
  };
  return (
    <>
      <FormField id="tool-name" label="Name" hint="Letters, digits, _ and -; at most 64. Unique in the catalog." errors={shown.name}>
        <input
          id="tool-name"
          {...invalidProps("tool-name", shown.name)}
          {...form.register("name")}
          // biome-ignore lint/a11y/noAutofocus: only on the new-tool page, which the user opened to type a name
          autoFocus={isNew}
          autoComplete="off"
          spellCheck={false}
          className="mono"
        />
      </FormField>
      <FormField
        id="tool-summary"
        label="Summary"
        hint="One sentence: all that preselection sees besides the name."
        errors={shown.summary}
        counter={<Counter length={summary.trim().length} max={SUMMARY_MAX} />}
      >
        <input id="tool-summary" {...invalidProps("tool-summary", shown.summary)} {...form.register("summary")} />
      </FormField>
      <FormField
        id="tool-description"
        label="Description"
        hint="What the main model reads when it has the tool: behaviour, limits, when not to use it."
        errors={shown.description}
        counter={<Counter length={description.length} max={DESCRIPTION_MAX} />}
      >
        <textarea id="tool-description" {...invalidProps("tool-description", shown.description)} rows={6} {...form.register("description")} />
      </FormField>
      <FormField
        id="tool-schema"
        label="Input schema (JSON Schema)"
        hint='The root must be {"type": "object", …}. Checked as JSON Schema as you type.'
        errors={shown.inputSchema}
        counter={
          <button type="button" className="ghost small-button" onClick={formatSchema}>
            Format
          </button>
        }
      >
        <textarea
          id="tool-schema"
          {...invalidProps("tool-schema", shown.inputSchema)}
          className="code"
          rows={14}
          {...form.register("inputSchema")}
          spellCheck={false}
          data-testid="schema-editor"
        />
      </FormField>
      <FormField id="tool-tags" label="Tags" hint="Comma-separated, lowercase: e.g. github, write" errors={shown.tags}>
        <input id="tool-tags" {...invalidProps("tool-tags", shown.tags)} {...form.register("tags")} autoComplete="off" />
      </FormField>
    </>
  );
}

/** How much of a limited text is used; over the limit it says so. */
function Counter({ length, max }: { length: number; max: number }) {
  return (
    <span className={`counter${length > max ? " over" : ""}`}>
      {length} / {max}
    </span>
  );
}

/** One field of the tool editor: label and hint, its input, and its errors (each tied to the input by `errorsId`). */
function FormField({
  id,
  label,
  hint,
  errors,
  counter,
  children,
}: {
  id: string;
  label: string;
  hint: string;
  errors?: FieldError[];
  counter?: React.ReactNode;
  children: React.ReactNode;
}) {
  return (
    <div className={`field${errors?.length ? " invalid" : ""}`}>
      <div className="spread">
        <label htmlFor={id}>
          {label} <span className="hint">{hint}</span>
        </label>
        {counter}
      </div>
      {children}
      <div id={errorsId(id)}>
        {withContentKeys(errors ?? [], (error) => `${error.field} ${error.message}`).map(([key, error]) => (
          <div key={key} className="field-error" role="alert" data-testid={`error-${id}`}>
            {error.field.includes(".") ? <code>{error.field}</code> : null} {error.message}
          </div>
        ))}
      </div>
    </div>
  );
}
