import type { FieldError } from "@/lib/tools/validate";

/** The problems whose field is `prefix` or lies under it. */
export function errorsUnder(problems: FieldError[], prefix: string): FieldError[] {
  return problems.filter((problem) => problem.field === prefix || problem.field.startsWith(`${prefix}.`));
}

export function FieldErrors({ problems, testId }: { problems: FieldError[]; testId?: string }) {
  if (problems.length === 0) return null;
  return (
    <div data-testid={testId}>
      {problems.map((problem, index) => (
        <div key={index} className="field-error" role="alert">
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
