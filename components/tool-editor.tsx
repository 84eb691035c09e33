"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useMemo, useState } from "react";
import { toast } from "sonner";
import { createToolAction, updateToolAction } from "@/app/catalogs/[catalog]/tools/actions";
import type { ToolRecord } from "@/db/queries/tools";
import { SUMMARY_MAX } from "@/lib/tools/types";
import { DESCRIPTION_MAX, validateToolDraft, type FieldError } from "@/lib/tools/validate";
import { queryKeys } from "./api-client";
import { withContentKeys } from "./content-keys";
import { errorsId, invalidProps } from "./field-errors";
import { SaveFailure, useSaveAction, useUnsavedChangesWarning } from "./save-state";

const NEW_SCHEMA = JSON.stringify({ type: "object", properties: {}, additionalProperties: false }, null, 2);

interface FormValues {
  name: string;
  summary: string;
  description: string;
  schemaText: string;
  tagsText: string;
}

type Field = "name" | "summary" | "description" | "inputSchema" | "tags";

function parseTags(text: string): string[] {
  return text
    .split(",")
    .map((tag) => tag.trim())
    .filter(Boolean);
}

/** Reads the form into a draft; a schema that is not JSON becomes a field error of its own. */
function toDraft(values: FormValues): { draft: Record<string, unknown>; jsonError?: FieldError } {
  const draft: Record<string, unknown> = {
    name: values.name.trim(),
    summary: values.summary.trim(),
    description: values.description,
    tags: parseTags(values.tagsText),
  };
  try {
    draft.inputSchema = JSON.parse(values.schemaText);
    return { draft };
  } catch (error) {
    return { draft, jsonError: { field: "inputSchema", message: `Not valid JSON: ${(error as Error).message}` } };
  }
}

/** Groups errors by the form field they belong to ("inputSchema.properties.x" → inputSchema). */
function byField(errors: FieldError[]): Partial<Record<Field, FieldError[]>> {
  const grouped: Partial<Record<Field, FieldError[]>> = {};
  for (const error of errors) {
    const field = error.field.split(".")[0] as Field;
    const fieldErrors = grouped[field] ?? [];
    fieldErrors.push(error);
    grouped[field] = fieldErrors;
  }
  return grouped;
}

export function ToolEditor({ catalogId, tool }: { catalogId: string; tool?: ToolRecord }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const { pending, failure, save } = useSaveAction();
  const [saved, setSaved] = useState<FormValues>(() => ({
    name: tool?.name ?? "",
    summary: tool?.summary ?? "",
    description: tool?.description ?? "",
    schemaText: tool ? JSON.stringify(tool.inputSchema, null, 2) : NEW_SCHEMA,
    tagsText: tool?.tags.join(", ") ?? "",
  }));
  const [values, setValues] = useState<FormValues>(saved);
  useUnsavedChangesWarning(JSON.stringify(values) !== JSON.stringify(saved));
  const [touched, setTouched] = useState<Partial<Record<Field, boolean>>>({});
  const [serverErrors, setServerErrors] = useState<FieldError[]>([]);
  const [submitted, setSubmitted] = useState(false);

  const liveErrors = useMemo(() => {
    const { draft, jsonError } = toDraft(values);
    const errors = validateToolDraft({ ...draft, inputSchema: jsonError ? {} : draft.inputSchema });
    return jsonError ? [...errors.filter((error) => !error.field.startsWith("inputSchema")), jsonError] : errors;
  }, [values]);

  const shown = byField([...liveErrors.filter((error) => submitted || touched[error.field.split(".")[0] as Field]), ...serverErrors]);

  const update = (key: keyof FormValues, field: Field) => (event: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    setValues((current) => ({ ...current, [key]: event.target.value }));
    setTouched((current) => ({ ...current, [field]: true }));
    setServerErrors((current) => current.filter((error) => !error.field.startsWith(field)));
  };

  const submit = () => {
    setSubmitted(true);
    if (liveErrors.length > 0) {
      toast.error(`Fix ${liveErrors.length} problem${liveErrors.length > 1 ? "s" : ""} before saving`);
      return;
    }
    const { draft } = toDraft(values);
    save(
      () => (tool ? updateToolAction(catalogId, tool.name, draft) : createToolAction(catalogId, draft)),
      async (saved) => {
        toast.success(tool ? `Saved ${saved.name}` : `Created ${saved.name}`);
        setSaved(values);
        await queryClient.invalidateQueries({ queryKey: queryKeys.tools(catalogId) });
        await queryClient.invalidateQueries({ queryKey: queryKeys.audit(catalogId, saved.name) });
        setSubmitted(false);
        setTouched({});
        const target = `/catalogs/${catalogId}/tools/${encodeURIComponent(saved.name)}`;
        if (!tool || saved.name !== tool.name) router.push(target);
        else router.refresh();
      },
      (error) => setServerErrors(error.problems),
    );
  };

  const formatSchema = () => {
    try {
      setValues((current) => ({ ...current, schemaText: JSON.stringify(JSON.parse(current.schemaText), null, 2) }));
    } catch {
      toast.error("The schema is not valid JSON yet");
    }
  };

  return (
    <form
      className="panel stack"
      data-testid="tool-editor"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
      onKeyDown={(event) => {
        if (event.key === "Enter" && (event.metaKey || event.ctrlKey)) {
          event.preventDefault();
          submit();
        }
      }}
    >
      <FormField id="tool-name" label="Name" hint="Letters, digits, _ and -; at most 64. Unique in the catalog." errors={shown.name}>
        <input
          id="tool-name"
          {...invalidProps("tool-name", shown.name)}
          value={values.name}
          onChange={update("name", "name")}
          // biome-ignore lint/a11y/noAutofocus: only on the new-tool page, which the user opened to type a name
          autoFocus={!tool}
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
        counter={<Counter length={values.summary.trim().length} max={SUMMARY_MAX} />}
      >
        <input id="tool-summary" {...invalidProps("tool-summary", shown.summary)} value={values.summary} onChange={update("summary", "summary")} />
      </FormField>
      <FormField
        id="tool-description"
        label="Description"
        hint="What the main model reads when it has the tool: behaviour, limits, when not to use it."
        errors={shown.description}
        counter={<Counter length={values.description.length} max={DESCRIPTION_MAX} />}
      >
        <textarea
          id="tool-description"
          {...invalidProps("tool-description", shown.description)}
          rows={6}
          value={values.description}
          onChange={update("description", "description")}
        />
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
          value={values.schemaText}
          onChange={update("schemaText", "inputSchema")}
          spellCheck={false}
          data-testid="schema-editor"
        />
      </FormField>
      <FormField id="tool-tags" label="Tags" hint="Comma-separated, lowercase: e.g. github, write" errors={shown.tags}>
        <input id="tool-tags" {...invalidProps("tool-tags", shown.tags)} value={values.tagsText} onChange={update("tagsText", "tags")} autoComplete="off" />
      </FormField>
      <SaveFailure failure={failure} what={tool ? tool.name : "the new tool"} onRetry={submit} pending={pending} />
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

function Counter({ length, max }: { length: number; max: number }) {
  return (
    <span className={`counter${length > max ? " over" : ""}`}>
      {length} / {max}
    </span>
  );
}

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
