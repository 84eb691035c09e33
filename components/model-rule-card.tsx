import type { UseFormRegister } from "react-hook-form";
import { explainModelRuleMatch, type ModelRule } from "@/lib/rules/model-rules";
import type { KnownModel } from "@/lib/rules/providers";
import type { FieldError } from "@/lib/tools/validate";
import { modelRuleWarnings } from "@/lib/warnings";
import { FieldErrors, groupProblems } from "./field-errors";
import { LabelledInput } from "./labelled-input";
import type { ModelRuleDraft } from "./rule-drafts";
import { WarningList } from "./warning-list";
import { RowOrderButtons } from "./row-order-buttons";

/** A model rule's four lists, as the editor shows them. */
const RULE_LISTS: { field: "include" | "exclude" | "enable" | "disable"; label: string; placeholder: string; list?: string }[] = [
  { field: "include", label: "Include models", placeholder: "gpt-, claude-*" },
  { field: "exclude", label: "Exclude models", placeholder: "oss, gpt-4" },
  { field: "enable", label: "Enable tools", placeholder: "apply_patch", list: "tool-names" },
  { field: "disable", label: "Disable tools", placeholder: "edit, write", list: "tool-names" },
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
        {RULE_LISTS.map(({ field, label, placeholder, list }) => (
          <LabelledInput
            key={field}
            label={label}
            registration={register(`modelRules.${index}.${field}`)}
            placeholder={placeholder}
            list={list}
            commaSeparated
            invalid={invalid(field)}
          />
        ))}
      </div>
      <RulePreview rule={rule} knownModels={knownModels} probe={probe} />
      <WarningList warnings={modelRuleWarnings(rule, knownModels)} testId={`rule-warnings-${index}`} />
      <FieldErrors problems={ruleProblems} testId={`rule-errors-${index}`} fieldId={`model-rule-${index}`} />
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
