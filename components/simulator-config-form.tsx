"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { type InputHTMLAttributes, useEffect } from "react";
import { type Control, useController, useForm } from "react-hook-form";
import { z } from "zod";
import { type PaneChange, type PaneState, type TypedSettings, typedChange, typedFlags } from "./simulator-state";

const KNOWN_FLAGS = ["experimental.lsp"];

/** What is typed into a pane's text fields, as it applies (see TypedSettings). */
const typedSettingsSchema = z.object({
  model: z.string().trim(),
  mode: z.string().trim(),
  newFlags: z.string().transform(typedFlags),
});

type TypedInput = z.input<typeof typedSettingsSchema>;
type TypedControl = Control<TypedInput, unknown, TypedSettings>;

/**
 * One pane's configuration. The settings in use are the pane's (the URL's): the agent and the flag
 * boxes change them at once; the text fields hold what is typed until Enter (or leaving the field)
 * applies it, and a setting changed from elsewhere replaces what was typed for it.
 */
export function ConfigForm({
  label,
  agents,
  pane,
  onChange,
}: {
  label?: string;
  agents: { name: string; mode: string }[];
  pane: PaneState;
  onChange: (change: PaneChange) => void;
}) {
  const { control, apply } = useTypedSettings(pane, onChange);
  const id = label ?? "a";
  return (
    <div className="panel stack">
      <div className="row">
        {label && (
          <span className="badge" style={{ fontSize: 13 }}>
            {label}
          </span>
        )}
        <div className="field" style={{ flex: 2, minWidth: 180 }}>
          <label htmlFor={`model-${id}`}>Model</label>
          <SettingInput
            id={`model-${id}`}
            control={control}
            name="model"
            applied={pane.model}
            onApply={() => apply("model")}
            testId="model-input"
            list="known-models"
            spellCheck={false}
          />
        </div>
        <div className="field" style={{ flex: 1, minWidth: 120 }}>
          <label htmlFor={`agent-${id}`}>Agent</label>
          <select
            id={`agent-${id}`}
            value={pane.agent}
            onChange={(event) => {
              const agent = event.target.value;
              onChange((state) => ({ ...state, agent }));
            }}
            data-testid="agent-select"
          >
            {agents.map((agent) => (
              <option key={agent.name} value={agent.name}>
                {agent.name} ({agent.mode})
              </option>
            ))}
          </select>
        </div>
        <div className="field" style={{ flex: 1, minWidth: 110 }}>
          <label htmlFor={`mode-${id}`}>Mode</label>
          <SettingInput
            id={`mode-${id}`}
            control={control}
            name="mode"
            applied={pane.mode}
            onApply={() => apply("mode")}
            testId="mode-input"
            placeholder={`${pane.agent} (the agent's)`}
          />
        </div>
      </div>
      <FlagSettings control={control} flags={pane.flags} onChange={onChange} onAdd={() => apply("newFlags")} />
    </div>
  );
}

/**
 * What is typed into a pane's text fields, applied one field at a time: the setting in use changing
 * (applied here, or from the URL) replaces what was typed for it, never what is typed in the others.
 */
function useTypedSettings(pane: PaneState, onChange: (change: PaneChange) => void) {
  const { control, handleSubmit, resetField } = useForm<TypedInput, unknown, TypedSettings>({
    resolver: zodResolver(typedSettingsSchema),
    defaultValues: { model: pane.model, mode: pane.mode, newFlags: "" },
  });
  useEffect(() => {
    resetField("model", { defaultValue: pane.model });
  }, [pane.model, resetField]);
  useEffect(() => {
    resetField("mode", { defaultValue: pane.mode });
  }, [pane.mode, resetField]);
  const apply = (field: keyof TypedSettings) =>
    void handleSubmit((typed) => {
      const change = typedChange(field, typed, pane);
      if (!change) return;
      onChange(change);
      if (field === "newFlags") resetField("newFlags");
    })();
  return { control, apply };
}

/**
 * A text setting applied on Enter or when the field is left: while what is typed differs from the
 * setting in use, the field says so, so it never reads as a setting the result is not using.
 */
function SettingInput({
  id,
  control,
  name,
  applied,
  onApply,
  testId,
  ...inputProps
}: { id: string; control: TypedControl; name: "model" | "mode"; applied: string; onApply: () => void; testId: string } & Omit<
  InputHTMLAttributes<HTMLInputElement>,
  "id" | "name" | "value" | "onChange" | "onBlur" | "onKeyDown"
>) {
  const { field } = useController({ control, name });
  const unapplied = field.value.trim() !== applied;
  return (
    <>
      <input
        id={id}
        ref={field.ref}
        value={field.value}
        onChange={field.onChange}
        onBlur={() => {
          field.onBlur();
          onApply();
        }}
        onKeyDown={(event) => event.key === "Enter" && onApply()}
        data-testid={testId}
        aria-describedby={unapplied ? `${id}-unapplied` : undefined}
        {...inputProps}
      />
      {unapplied && (
        <span id={`${id}-unapplied`} className="hint" data-testid={`${testId}-unapplied`}>
          not applied yet: Enter applies
        </span>
      )}
    </>
  );
}

/** The flags on (a box each, the known ones always offered) and a field to type others into, added on Enter. */
function FlagSettings({
  control,
  flags,
  onChange,
  onAdd,
}: {
  control: TypedControl;
  flags: string[];
  onChange: (change: PaneChange) => void;
  onAdd: () => void;
}) {
  const { field } = useController({ control, name: "newFlags" });
  return (
    <div className="row small">
      <span className="muted">Flags</span>
      {[...new Set([...KNOWN_FLAGS, ...flags])].map((flag) => (
        <label key={flag} className="row" style={{ fontWeight: 400, gap: 4 }}>
          <input
            type="checkbox"
            checked={flags.includes(flag)}
            onChange={(event) => {
              const on = event.target.checked;
              onChange((state) => ({ ...state, flags: on ? [...state.flags, flag] : state.flags.filter((f) => f !== flag) }));
            }}
          />
          <code>{flag}</code>
        </label>
      ))}
      <input
        placeholder="another flag + Enter"
        aria-label="Another flag"
        ref={field.ref}
        value={field.value}
        onChange={field.onChange}
        onBlur={field.onBlur}
        onKeyDown={(event) => event.key === "Enter" && onAdd()}
        style={{ width: 170 }}
      />
    </div>
  );
}
