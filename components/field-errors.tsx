import type { FieldError } from "@/lib/tools/validate";
import { withContentKeys } from "./content-keys";

/** The problems whose field is `prefix` or lies under it. */
export function errorsUnder(problems: FieldError[], prefix: string): FieldError[] {
  return problems.filter((problem) => problem.field === prefix || problem.field.startsWith(`${prefix}.`));
}

/** The id of the element that shows a field's problems: the field names it in aria-describedby. */
export const errorsId = (fieldId: string) => `${fieldId}-errors`;

/** For a field's input while it has problems: invalid, and described by them (so a screen reader reads them with the field). */
export function invalidProps(fieldId: string, problems: FieldError[] | undefined) {
  return problems?.length ? { "aria-invalid": true, "aria-describedby": errorsId(fieldId) } : {};
}

/**
 * The problems of a group of fields (a rule, a row: those under `prefix`), shown together by the
 * <FieldErrors> of `fieldId`; `invalid(field)` gives a field of the group invalidProps described by them.
 */
export function groupProblems(problems: FieldError[], prefix: string, fieldId: string) {
  const group = errorsUnder(problems, prefix);
  return { problems: group, invalid: (field: string) => invalidProps(fieldId, errorsUnder(group, `${prefix}.${field}`)) };
}

/** `fieldId`: the input these problems are about (see `invalidProps`); `label` names a field in the form's words instead of its path. */
export function FieldErrors({
  problems,
  testId,
  fieldId,
  label,
}: {
  problems: FieldError[];
  testId?: string;
  fieldId?: string;
  label?: (field: string) => string;
}) {
  if (problems.length === 0) return null;
  return (
    <div data-testid={testId} id={fieldId && errorsId(fieldId)}>
      {withContentKeys(problems, (problem) => `${problem.field} ${problem.message}`).map(([key, problem]) => (
        <div key={key} className="field-error" role="alert">
          {label ? <strong>{label(problem.field)}:</strong> : <code>{problem.field}</code>} {problem.message}
        </div>
      ))}
    </div>
  );
}

export function splitList(text: string): string[] {
  return text
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);
}
