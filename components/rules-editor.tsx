"use client";

import { useRouter } from "next/navigation";
import { useMemo, useState } from "react";
import { toast } from "sonner";
import { saveRulesAction } from "@/app/catalogs/[catalog]/rules/actions";
import type { CatalogRules } from "@/lib/rules/catalog-rules";
import { explainModelRuleMatch, type ModelRule } from "@/lib/rules/model-rules";
import type { DefinitionOverride } from "@/lib/rules/overrides";
import type { KnownModel, ProviderProfile } from "@/lib/rules/providers";
import type { FieldError } from "@/lib/tools/validate";
import { modelRuleWarnings } from "@/lib/warnings";
import { editRowAt, rowValues, toEditableRow, toEditableRows } from "./editable-rows";
import { FieldErrors, groupProblems, splitList } from "./field-errors";
import { useCan } from "./catalog-access";
import { SaveFailure, useSaveAction, useUnsavedChangesWarning } from "./save-state";
import { WarningList } from "./warning-list";

interface Props {
  catalogId: string;
  rules: CatalogRules;
  toolNames: string[];
  knownModels: KnownModel[];
}

/**
 * Saves one part of the rules, reporting field errors back to the editor that owns it; `draft` is
 * that editor's state, compared with what was last saved to warn before leaving with edits unsaved.
 */
function useSave(catalogId: string, draft: unknown) {
  const router = useRouter();
  const { pending, failure, save } = useSaveAction();
  const [saved, setSaved] = useState(() => JSON.stringify(draft));
  useUnsavedChangesWarning(JSON.stringify(draft) !== saved);
  const saveRules = (changes: Partial<CatalogRules>, message: string) => {
    const sent = JSON.stringify(draft);
    save(
      () => saveRulesAction(catalogId, changes),
      () => {
        setSaved(sent);
        toast.success(message);
        router.refresh();
      },
    );
  };
  return { pending, failure, problems: failure?.problems ?? ([] as FieldError[]), save: saveRules };
}

export function RulesEditor({ catalogId, rules, toolNames, knownModels }: Props) {
  const canEdit = useCan("write");
  return (
    // A disabled fieldset makes every control read-only for viewers; .read-only hides the buttons.
    <fieldset className={canEdit ? "bare stack" : "bare stack read-only"} disabled={!canEdit} data-testid="rules-editor">
      {!canEdit && (
        <p className="muted small" data-testid="read-only-note">
          Your role can read the rules; editors change them.
        </p>
      )}
      <datalist id="tool-names">
        {toolNames.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
      <ModelRulesEditor catalogId={catalogId} initial={rules.modelRules} knownModels={knownModels} />
      <ProvidersEditor catalogId={catalogId} initial={rules.providers} searchService={rules.searchServiceConfigured} />
      <OverridesEditor catalogId={catalogId} initial={rules.overrides} toolNames={toolNames} />
    </fieldset>
  );
}

interface RuleDraft {
  id: string;
  name: string;
  include: string;
  exclude: string;
  enable: string;
  disable: string;
}

const toDraft = (rule: ModelRule): RuleDraft => ({
  id: rule.id,
  name: rule.name,
  include: rule.include.join(", "),
  exclude: rule.exclude.join(", "),
  enable: rule.enable.join(", "),
  disable: rule.disable.join(", "),
});

const fromDraft = (draft: RuleDraft): ModelRule => ({
  id: draft.id,
  name: draft.name.trim(),
  include: splitList(draft.include),
  exclude: splitList(draft.exclude),
  enable: splitList(draft.enable),
  disable: splitList(draft.disable),
});

/** A model rule's four lists, as the editor shows them. */
const RULE_LISTS: { field: "include" | "exclude" | "enable" | "disable"; label: string; placeholder: string; list?: string }[] = [
  { field: "include", label: "Include models", placeholder: "gpt-, claude-*" },
  { field: "exclude", label: "Exclude models", placeholder: "oss, gpt-4" },
  { field: "enable", label: "Enable tools", placeholder: "apply_patch", list: "tool-names" },
  { field: "disable", label: "Disable tools", placeholder: "edit, write", list: "tool-names" },
];

function ModelRulesEditor({ catalogId, initial, knownModels }: { catalogId: string; initial: ModelRule[]; knownModels: KnownModel[] }) {
  const [drafts, setDrafts] = useState(() => initial.map(toDraft));
  const [probe, setProbe] = useState("");
  const { pending, failure, problems, save } = useSave(catalogId, drafts);
  const rules = useMemo(() => drafts.map(fromDraft), [drafts]);
  const submit = () => save({ modelRules: rules }, "Model rules saved");

  const edit = (index: number, key: keyof RuleDraft, value: string) =>
    setDrafts((current) => current.map((draft, i) => (i === index ? { ...draft, [key]: value } : draft)));
  const move = (index: number, by: number) =>
    setDrafts((current) => {
      const next = [...current];
      const [rule] = next.splice(index, 1);
      next.splice(index + by, 0, rule);
      return next;
    });
  const add = () =>
    setDrafts((current) => [...current, { id: `rule-${Date.now().toString(36)}`, name: "New rule", include: "*", exclude: "", enable: "", disable: "" }]);

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
            data-testid="probe-model"
          />
          <datalist id="known-models-rules">
            {knownModels.map((model) => (
              <option key={model.id} value={model.id} />
            ))}
          </datalist>
        </div>
      </div>
      {rules.map((rule, index) => {
        const matches = knownModels.filter((model) => explainModelRuleMatch(rule, model.id) !== undefined);
        const probeMatch = probe.trim() ? explainModelRuleMatch(rule, probe.trim()) : undefined;
        const { problems: ruleProblems, invalid } = groupProblems(problems, `modelRules.${index}`, `model-rule-${index}`);
        return (
          <div key={drafts[index].id} className="card" data-testid={`model-rule-${index}`}>
            <div className="row">
              <span className="badge">#{index + 1}</span>
              <input
                aria-label="Rule name"
                value={drafts[index].name}
                onChange={(event) => edit(index, "name", event.target.value)}
                style={{ flex: 1 }}
                {...invalid("name")}
              />
              <button type="button" className="small-button" onClick={() => move(index, -1)} disabled={index === 0} aria-label="Move up">
                ↑
              </button>
              <button type="button" className="small-button" onClick={() => move(index, 1)} disabled={index === rules.length - 1} aria-label="Move down">
                ↓
              </button>
              <button type="button" className="small-button danger" onClick={() => setDrafts((current) => current.filter((_, i) => i !== index))}>
                Remove
              </button>
            </div>
            <div className="grid-2">
              {RULE_LISTS.map(({ field, label, placeholder, list }) => (
                <TextInput
                  key={field}
                  label={label}
                  value={drafts[index][field]}
                  onChange={(value) => edit(index, field, value)}
                  placeholder={placeholder}
                  list={list}
                  commaSeparated
                  invalid={invalid(field)}
                />
              ))}
            </div>
            <div className="small" data-testid="rule-preview">
              <span className="muted">
                Matches {matches.length} of {knownModels.length} known models:{" "}
              </span>
              {matches.length === 0 ? (
                <span className="faint">none</span>
              ) : (
                matches.map((model) => (
                  <span key={model.id} className="tag">
                    {model.id}
                  </span>
                ))
              )}
            </div>
            {probe.trim() && (
              <div className="small" data-testid="probe-result">
                {probeMatch ? <span className="badge ok">applies</span> : <span className="badge">does not apply</span>}{" "}
                <span className="muted">{probeMatch}</span>
              </div>
            )}
            <WarningList warnings={modelRuleWarnings(rule, knownModels)} testId={`rule-warnings-${index}`} />
            <FieldErrors problems={ruleProblems} testId={`rule-errors-${index}`} fieldId={`model-rule-${index}`} />
          </div>
        );
      })}
      <FieldErrors problems={problems.filter((problem) => !/^modelRules\.\d/.test(problem.field))} />
      <SaveFailure failure={failure} what="the model rules" onRetry={submit} pending={pending} />
      <div className="row end">
        <button type="button" onClick={add}>
          Add rule
        </button>
        <button type="button" className="primary" disabled={pending} onClick={submit} data-testid="save-model-rules">
          Save model rules
        </button>
      </div>
    </section>
  );
}

/** A labelled one-line input in a field; a list input says it takes comma-separated values. */
function TextInput({
  label,
  value,
  onChange,
  placeholder,
  list,
  commaSeparated = false,
  className,
  invalid,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
  list?: string;
  commaSeparated?: boolean;
  className?: string;
  /** invalidProps of the field, while it has problems. */
  invalid?: ReturnType<ReturnType<typeof groupProblems>["invalid"]>;
}) {
  return (
    <div className="field">
      <label>
        {label}
        {commaSeparated && (
          <>
            {" "}
            <span className="hint">comma-separated</span>
          </>
        )}
        <input
          value={value}
          onChange={(event) => onChange(event.target.value)}
          placeholder={placeholder}
          list={list}
          className={className}
          spellCheck={commaSeparated ? false : undefined}
          style={{ width: "100%", marginTop: 4 }}
          {...invalid}
        />
      </label>
    </div>
  );
}

/** The providers' problems show together under the table; each field with some is described by them. */
const PROVIDER_ERRORS = "providers";

function ProvidersEditor({ catalogId, initial, searchService }: { catalogId: string; initial: ProviderProfile[]; searchService: boolean }) {
  const [providers, setProviders] = useState(() => toEditableRows(initial));
  const [service, setService] = useState(searchService);
  const { pending, failure, problems, save } = useSave(catalogId, { providers: rowValues(providers), service });
  const submit = () => save({ providers: rowValues(providers), searchServiceConfigured: service }, "Providers saved");
  const edit = (index: number, change: Partial<ProviderProfile>) => setProviders((current) => editRowAt(current, index, change));
  return (
    <section className="panel stack" data-testid="providers">
      <div>
        <h2 style={{ margin: 0 }}>Providers</h2>
        <p className="muted small">
          <code>websearch</code> is offered only where the provider searches natively, or to every model once a search service is configured.
        </p>
      </div>
      <table>
        <thead>
          <tr>
            <th>Id</th>
            <th>Name</th>
            <th>Native web search</th>
            <th>
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {providers.map(({ key, value: provider }, index) => (
            <tr key={key} data-testid={`provider-${provider.id}`}>
              <td>
                <input
                  aria-label="Provider id"
                  value={provider.id}
                  onChange={(event) => edit(index, { id: event.target.value })}
                  className="mono"
                  {...groupProblems(problems, `providers.${index}`, PROVIDER_ERRORS).invalid("id")}
                />
              </td>
              <td>
                <input
                  aria-label="Provider name"
                  value={provider.name}
                  onChange={(event) => edit(index, { name: event.target.value })}
                  {...groupProblems(problems, `providers.${index}`, PROVIDER_ERRORS).invalid("name")}
                />
              </td>
              <td>
                <input
                  type="checkbox"
                  aria-label={`${provider.id} searches natively`}
                  checked={provider.webSearch}
                  onChange={(event) => edit(index, { webSearch: event.target.checked })}
                />
              </td>
              <td>
                <button type="button" className="small-button danger" onClick={() => setProviders((current) => current.filter((_, i) => i !== index))}>
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <label className="row" style={{ fontWeight: 400 }}>
        <input type="checkbox" checked={service} onChange={(event) => setService(event.target.checked)} data-testid="search-service" />A search service is
        configured for this catalog (every model may get <code>websearch</code>)
      </label>
      <FieldErrors problems={problems} fieldId={PROVIDER_ERRORS} />
      <SaveFailure failure={failure} what="the providers" onRetry={submit} pending={pending} />
      <div className="row end">
        <button
          type="button"
          onClick={() =>
            setProviders((current) => [...current, toEditableRow<ProviderProfile>({ id: "new-provider", name: "New provider", webSearch: false })])
          }
        >
          Add provider
        </button>
        <button type="button" className="primary" disabled={pending} onClick={submit}>
          Save providers
        </button>
      </div>
    </section>
  );
}

interface OverrideDraft {
  tool: string;
  models: string;
  summary: string;
  description: string;
}

function OverridesEditor({ catalogId, initial, toolNames }: { catalogId: string; initial: DefinitionOverride[]; toolNames: string[] }) {
  const [drafts, setDrafts] = useState(() =>
    toEditableRows<OverrideDraft>(
      initial.map((override) => ({
        tool: override.tool,
        models: override.models.join(", "),
        summary: override.summary ?? "",
        description: override.description ?? "",
      })),
    ),
  );
  const { pending, failure, problems, save } = useSave(catalogId, rowValues(drafts));
  const overrides: DefinitionOverride[] = rowValues(drafts).map((draft) => ({
    tool: draft.tool.trim(),
    models: splitList(draft.models),
    ...(draft.summary.trim() ? { summary: draft.summary.trim() } : {}),
    ...(draft.description.trim() ? { description: draft.description } : {}),
  }));
  const edit = (index: number, change: Partial<OverrideDraft>) => setDrafts((current) => editRowAt(current, index, change));
  const submit = () => save({ overrides }, "Overrides saved");
  return (
    <section className="panel stack" data-testid="overrides">
      <div>
        <h2 style={{ margin: 0 }}>Definition overrides</h2>
        <p className="muted small">
          Replace a tool&apos;s summary or description, for every model or only for model patterns (e.g. a clearer description for one family).
        </p>
      </div>
      {drafts.length === 0 && <p className="faint">No overrides.</p>}
      {drafts.map(({ key, value: draft }, index) => {
        const { problems: overrideProblems, invalid } = groupProblems(problems, `overrides.${index}`, `override-${index}`);
        return (
          <div key={key} className="card">
            <div className="grid-2">
              <TextInput
                label="Tool"
                value={draft.tool}
                onChange={(value) => edit(index, { tool: value })}
                list="tool-names"
                className="mono"
                invalid={invalid("tool")}
              />
              <TextInput
                label="Only for models"
                value={draft.models}
                onChange={(value) => edit(index, { models: value })}
                placeholder="empty = every model"
                commaSeparated
                invalid={invalid("models")}
              />
            </div>
            <TextInput label="Summary" value={draft.summary} onChange={(value) => edit(index, { summary: value })} invalid={invalid("summary")} />
            <div className="field">
              <label>
                Description
                <textarea
                  rows={3}
                  value={draft.description}
                  onChange={(event) => edit(index, { description: event.target.value })}
                  style={{ marginTop: 4 }}
                  {...invalid("description")}
                />
              </label>
            </div>
            <FieldErrors problems={overrideProblems} fieldId={`override-${index}`} />
            <div className="row end">
              <button type="button" className="small-button danger" onClick={() => setDrafts((current) => current.filter((_, i) => i !== index))}>
                Remove
              </button>
            </div>
          </div>
        );
      })}
      <SaveFailure failure={failure} what="the overrides" onRetry={submit} pending={pending} />
      <div className="row end">
        <button
          type="button"
          onClick={() =>
            setDrafts((current) => [...current, toEditableRow<OverrideDraft>({ tool: toolNames[0] ?? "", models: "", summary: "", description: "" })])
          }
        >
          Add override
        </button>
        <button type="button" className="primary" disabled={pending} onClick={submit}>
          Save overrides
        </button>
      </div>
    </section>
  );
}
