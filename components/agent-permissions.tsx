"use client";

import { type UseFormReturn, useFieldArray, useWatch } from "react-hook-form";
import { type Agent, PERMISSION_ACTIONS } from "@/lib/rules/agents";
import type { FieldError } from "@/lib/tools/validate";
import { permissionWarnings } from "@/lib/warnings";
import type { AgentDraft } from "./agent-draft";
import type { KnownNames } from "./agent-form";
import { FieldErrors, groupProblems } from "./field-errors";
import { WarningList } from "./warning-list";

type AgentFormState = UseFormReturn<AgentDraft, unknown, Agent>;

/** An agent's permission rules, in order: each with its warnings (a pattern naming nothing) and problems. */
export function AgentPermissions({
  form,
  known,
  problems,
  fieldId,
}: {
  form: AgentFormState;
  known: KnownNames;
  problems: FieldError[];
  fieldId: (field: string) => string;
}) {
  const rows = useFieldArray({ control: form.control, name: "permissions" });
  const warnings = permissionWarnings(useWatch({ control: form.control, name: "permissions" }), known);
  return (
    <div>
      <h3>
        Permission rules <span className="hint">last match wins</span>
      </h3>
      <table>
        <tbody>
          {rows.fields.map((row, index) => {
            const ruleId = fieldId(`permission-${index}`);
            const { problems: ruleProblems, invalid } = groupProblems(problems, `permissions.${index}`, ruleId);
            return (
              <tr key={row.id} data-testid={`permission-${index}`}>
                <td style={{ width: 30 }} className="faint">
                  {index + 1}
                </td>
                <td>
                  <input
                    aria-label={`Pattern ${index + 1}`}
                    {...form.register(`permissions.${index}.pattern`)}
                    list="agent-tool-names"
                    className="mono"
                    spellCheck={false}
                    {...invalid("pattern")}
                  />
                  <WarningList warnings={warnings.filter((warning) => warning.index === index)} testId={`permission-warning-${index}`} />
                  <FieldErrors problems={ruleProblems} fieldId={ruleId} />
                </td>
                <td>
                  <select aria-label={`Action ${index + 1}`} {...form.register(`permissions.${index}.action`)} {...invalid("action")}>
                    {PERMISSION_ACTIONS.map((action) => (
                      <option key={action}>{action}</option>
                    ))}
                  </select>
                </td>
                <td className="row" style={{ justifyContent: "flex-end" }}>
                  <button type="button" className="small-button" onClick={() => rows.move(index, index - 1)} disabled={index === 0} aria-label="Move up">
                    ↑
                  </button>
                  <button
                    type="button"
                    className="small-button"
                    onClick={() => rows.move(index, index + 1)}
                    disabled={index === rows.fields.length - 1}
                    aria-label="Move down"
                  >
                    ↓
                  </button>
                  <button type="button" className="small-button danger" onClick={() => rows.remove(index)}>
                    Remove
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <button
        type="button"
        className="small-button"
        style={{ marginTop: 8 }}
        onClick={() => rows.append({ pattern: "", action: "deny" }, { shouldFocus: false })}
        data-testid="add-permission"
      >
        Add rule
      </button>
    </div>
  );
}
