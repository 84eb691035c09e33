import type { UseFormRegister } from "react-hook-form";
import { explainModelRuleMatch, type ModelRule } from "@/lib/rules/model-rules";
import type { KnownModel } from "@/lib/rules/providers";
import { unknownToolMessage } from "@/lib/rules/tool-name-check";
import type { FieldError } from "@/lib/tools/validate";
import { modelRuleWarnings } from "@/lib/warnings";
import { FieldErrors, groupProblems } from "./field-errors";
import { LabelledInput } from "./labelled-input";
import { MODEL_RULE_FIELD_LABELS, unknownRuleTools } from "./model-rule-problems";
import type { ModelRuleDraft } from "./rule-drafts";
import { RowOrderButtons } from "./row-order-buttons";
import { WarningList } from "./warning-list";

/** A model rule's four lists, as the editor shows them; the placeholders are examples, set apart from values by their style (.example-placeholder). */
const RULE_LISTS: { field: "include" | "exclude" | "enable" | "disable"; placeholder: string; list?: string }[] = [
  { field: "include", placeholder: "e.g. gpt-, claude-*" },
  { field: "exclude", placeholder: "e.g. oss, gpt-4" },
  { field: "enable", placeholder: "e.g. apply_patch", list: "tool-names" },
  { field: "disable", placeholder: "e.g. edit, write", list: "tool-names" },
];

/** One model rule of the form: its fields, the known models it matches, whether it applies to the probed model, its warnings and problems. */
export function ModelRuleCard({
  index,
  count,
  rule,
  register,
  onMove,
  onRemove,
  knownModels,
  probe,
  problems,
  tools,
  onUseName,
  label,
}: {
  index: number;
  count: number;
  /** The rule as typed so far. */
  rule: ModelRule;
  register: UseFormRegister<{ modelRules: ModelRuleDraft[] }>;
  onMove: (by: number) => void;
  onRemove: () => void;
  knownModels: KnownModel[];
  /** The model id typed to try the rules on, trimmed. */
  probe: string;
  problems: FieldError[];
  /** The catalog's tool names, to check the typed ones against. */
  tools: { names: string[]; known: ReadonlySet<string> };
  /** Puts `name` in place of the item at `position` of a tool list. */
  onUseName: (field: "enable" | "disable", position: number, name: string) => void;
  /** A problem's field in the form's words. */
  label: (field: string) => string;
}) {
  const { problems: ruleProblems, invalid } = groupProblems(problems, `modelRules.${index}`, `model-rule-${index}`);
  return (
    <div className="card" data-testid={`model-rule-${index}`}>
      <div className="row">
        <span className="badge">#{index + 1}</span>
        <input aria-label="Rule name" {...register(`modelRules.${index}.name`)} style={{ flex: 1 }} {...invalid("name")} />
        <RowOrderButtons index={index} count={count} onMove={onMove} onRemove={onRemove} />
      </div>
      <div className="grid-2">
        {RULE_LISTS.map(({ field, placeholder, list }) => (
          <LabelledInput
            key={field}
            label={MODEL_RULE_FIELD_LABELS[field]}
            registration={register(`modelRules.${index}.${field}`)}
            placeholder={placeholder}
            className="example-placeholder"
            list={list}
            commaSeparated
            invalid={invalid(field)}
          />
        ))}
      </div>
      <UnknownTools rule={rule} index={index} tools={tools} onUseName={onUseName} />
      <RulePreview rule={rule} knownModels={knownModels} probe={probe} />
      <WarningList warnings={modelRuleWarnings(rule, knownModels)} testId={`rule-warnings-${index}`} />
      <FieldErrors problems={ruleProblems} testId={`rule-errors-${index}`} fieldId={`model-rule-${index}`} label={label} />
    </div>
  );
}

/** The tool names typed that the catalog lacks, told as they are typed, with the name likely meant to put in their place. */
function UnknownTools({
  rule,
  index,
  tools,
  onUseName,
}: {
  rule: ModelRule;
  index: number;
  tools: { names: string[]; known: ReadonlySet<string> };
  onUseName: (field: "enable" | "disable", position: number, name: string) => void;
}) {
  const lists = unknownRuleTools(rule, tools.names, tools.known);
  return (
    <div aria-live="polite" data-testid={`rule-unknown-${index}`}>
      {lists.flatMap(({ field, unknown }) =>
        unknown.map((entry) => (
          <div key={`${field}-${entry.position}`} className="field-error row" data-testid={`rule-unknown-${index}-${field}-${entry.position}`}>
            <span>
              <strong>{MODEL_RULE_FIELD_LABELS[field]}:</strong> {unknownToolMessage(entry)}
            </span>
            {entry.suggestion && (
              <button type="button" className="small-button" onClick={() => onUseName(field, entry.position, entry.suggestion!)}>
                Use “{entry.suggestion}”
              </button>
            )}
          </div>
        )),
      )}
    </div>
  );
}

function RulePreview({ rule, knownModels, probe }: { rule: ModelRule; knownModels: KnownModel[]; probe: string }) {
  const matches = knownModels.filter((model) => explainModelRuleMatch(rule, model.id) !== undefined);
  const probeMatch = probe ? explainModelRuleMatch(rule, probe) : undefined;
  return (
    <>
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
      {probe && (
        <div className="small" data-testid="probe-result">
          {probeMatch ? <span className="badge ok">applies</span> : <span className="badge">does not apply</span>} <span className="muted">{probeMatch}</span>
        </div>
      )}
    </>
  );
}
