"use client";

import { useFieldArray } from "react-hook-form";
import { PERMISSION_ACTIONS } from "@/lib/rules/agents";
import type { FieldError } from "@/lib/tools/validate";
import { permissionWarnings, type Warning } from "@/lib/warnings";
import type { AgentFormState } from "./agent-draft";
import type { KnownNames } from "./agent-form";
import { FieldErrors, groupProblems } from "./field-errors";
import { WarningList } from "./warning-list";
import { RowOrderButtons } from "./row-order-buttons";

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
  // watch, not useWatch: read with the rows in the same render, an added row is there at once.
  const warnings = permissionWarnings(form.watch("permissions"), known);
  return (
    <div>
      <h3>
        Permission rules <span className="hint">last match wins</span>
      </h3>
      <table>
        <tbody>
          {rows.fields.map((row, index) => (
            <PermissionRow
              key={row.id}
              index={index}
              count={rows.fields.length}
              form={form}
              onMove={(by) => rows.move(index, index + by)}
              onRemove={() => rows.remove(index)}
              warnings={warnings.filter((warning) => warning.index === index)}
              problems={problems}
              fieldId={fieldId}
            />
          ))}
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

/** One permission rule: its pattern (with its warnings and problems), its action, and its place in the order. */
function PermissionRow({
  index,
  count,
  form,
  onMove,
  onRemove,
  warnings,
  problems,
  fieldId,
}: {
  index: number;
  count: number;
  form: AgentFormState;
  onMove: (by: number) => void;
  onRemove: () => void;
  warnings: Warning[];
  problems: FieldError[];
  fieldId: (field: string) => string;
}) {
  const ruleId = fieldId(`permission-${index}`);
  const { problems: ruleProblems, invalid } = groupProblems(problems, `permissions.${index}`, ruleId);
  return (
    <tr data-testid={`permission-${index}`}>
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
        <WarningList warnings={warnings} testId={`permission-warning-${index}`} />
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
        <RowOrderButtons index={index} count={count} onMove={onMove} onRemove={onRemove} />
      </td>
    </tr>
  );
}
