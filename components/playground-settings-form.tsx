"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useRef } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { playgroundBody } from "@/lib/api-schemas";
import { FieldErrors, invalidProps } from "./field-errors";
import { type PlaygroundSettings, settingsChange } from "./playground-settings";

const TOP_K = "Top k is a whole number from 1 to 50.";

/** Flags as typed, "a, b": the list of names. */
const flagsOf = (text: string) => text.replace(/\s+/g, "").split(",").filter(Boolean);

const fields = playgroundBody.shape;

/**
 * The settings as typed, read into what the playground route takes and checked with its own
 * schema (lib/api-schemas.ts playgroundBody), so a setting it would refuse is never sent.
 * Empty mode and flags mean none.
 */
const settingsSchema = z.object({
  model: fields.model,
  agent: fields.agent,
  mode: z
    .string()
    .trim()
    .transform((mode) => mode || undefined)
    .pipe(fields.mode),
  flags: z.string().transform(flagsOf).pipe(fields.flags.unwrap()),
  // The route's k (1 to 50), in the words of the field's label.
  k: z.number({ error: TOP_K }).int(TOP_K).min(1, TOP_K).max(50, TOP_K).pipe(fields.k.unwrap()),
});

type SettingsValues = z.input<typeof settingsSchema>;

const formValuesOf = (settings: PlaygroundSettings): SettingsValues => ({
  model: settings.model,
  agent: settings.agent,
  mode: settings.mode ?? "",
  flags: settings.flags.join(","),
  k: settings.k,
});

interface Props {
  settings: PlaygroundSettings;
  agents: { name: string; mode: string }[];
  knownModels: string[];
  /** The URL parameters to change. */
  onChange: (change: Record<string, string | undefined>) => void;
  status: { auxSelector: string; mainModel: string | null; mainModelError: string | null };
}

/**
 * The turn's settings, which live in the URL. They apply together when a text field is left or the
 * agent or top k changes, once all are valid; only what changed goes to the URL. A field follows
 * the URL when the URL's value of it changes (a conversation picked, a setting applied); the others
 * keep what is typed in them.
 */
export function PlaygroundSettingsForm({ settings, agents, knownModels, onChange, status }: Props) {
  const values = formValuesOf(settings);
  const { register, handleSubmit, resetField, formState } = useForm<SettingsValues, unknown, PlaygroundSettings>({
    resolver: zodResolver(settingsSchema),
    defaultValues: values,
    // Settings apply as the person moves between fields: an invalid one says why without taking the focus back.
    shouldFocusError: false,
  });
  const shown = useRef(values);
  useEffect(() => {
    for (const name of Object.keys(values) as (keyof SettingsValues)[]) {
      if (!Object.is(values[name], shown.current[name])) resetField(name, { defaultValue: values[name] });
    }
    shown.current = values;
  });
  const apply = () => {
    void handleSubmit((next) => {
      const change = settingsChange(settings, next);
      if (Object.keys(change).length > 0) onChange(change);
    })();
  };
  const problems = Object.entries(formState.errors).map(([field, error]) => ({ field, message: error?.message ?? "" }));
  const invalid = (field: keyof SettingsValues) => invalidProps("playground-config", formState.errors[field] ? problems : undefined);
  return (
    <div className="panel row" data-testid="playground-config">
      <label className="field" style={{ flex: 2, minWidth: 160 }}>
        Model (for the pipeline)
        <input list="playground-models" {...register("model", { onBlur: apply })} {...invalid("model")} data-testid="playground-model" />
        <datalist id="playground-models">
          {knownModels.map((id) => (
            <option key={id} value={id} />
          ))}
        </datalist>
      </label>
      <label className="field" style={{ flex: 1, minWidth: 110 }}>
        Agent
        <select {...register("agent", { onChange: apply })} data-testid="playground-agent">
          {agents.map((agent) => (
            <option key={agent.name} value={agent.name}>
              {agent.name}
            </option>
          ))}
        </select>
      </label>
      <label className="field" style={{ width: 110 }}>
        Mode
        <input placeholder={settings.agent} {...register("mode", { onBlur: apply })} {...invalid("mode")} />
      </label>
      <label className="field" style={{ width: 150 }}>
        Flags
        <input placeholder="experimental.lsp" {...register("flags", { onBlur: apply })} {...invalid("flags")} />
      </label>
      <label className="field" style={{ width: 80 }}>
        Top k
        <input type="number" min={1} max={50} {...register("k", { valueAsNumber: true, onChange: apply })} {...invalid("k")} data-testid="playground-k" />
      </label>
      {problems.length > 0 && (
        <div style={{ flexBasis: "100%" }}>
          <FieldErrors problems={problems} fieldId="playground-config" testId="playground-config-errors" />
        </div>
      )}
      <ModelStatus {...status} />
    </div>
  );
}

function ModelStatus({ auxSelector, mainModel, mainModelError }: Props["status"]) {
  return (
    <div className="small" style={{ flexBasis: "100%" }} data-testid="model-status">
      Auxiliary selector: <b>{auxSelector}</b> · Main model: {mainModel ? <b>{mainModel}</b> : <span className="badge warn">none configured</span>}
      {mainModelError && <span className="field-error"> {mainModelError}</span>}
      {!mainModel && <span className="muted"> · each message shows the tool set the main model would get; use the ToolSearch console below.</span>}
    </div>
  );
}
