import type { FieldError } from "@/lib/tools/validate";
import { withContentKeys } from "./content-keys";

/** The problems whose field is `prefix` or lies under it. */
export function errorsUnder(problems: FieldError[], prefix: string): FieldError[] {
  return problems.filter((problem) => problem.field === prefix || problem.field.startsWith(`${prefix}.`));
}

export function FieldErrors({ problems, testId }: { problems: FieldError[]; testId?: string }) {
  if (problems.length === 0) return null;
  return (
    <div data-testid={testId}>
      {withContentKeys(problems, (problem) => `${problem.field} ${problem.message}`).map(([key, problem]) => (
        <div key={key} className="field-error" role="alert">
          <code>{problem.field}</code> {problem.message}
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
