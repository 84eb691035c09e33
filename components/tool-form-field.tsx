import type { FieldError } from "@/lib/tools/validate";
import { withContentKeys } from "./content-keys";
import { errorsId } from "./field-errors";

/** How much of a limited text is used; over the limit it says so. */
export function Counter({ length, max }: { length: number; max: number }) {
  return (
    <span className={`counter${length > max ? " over" : ""}`}>
      {length} / {max}
    </span>
  );
}

/** One field of the tool editor: label and hint, its input, and its errors (each tied to the input by `errorsId`). */
export function FormField({
  id,
  label,
  hint,
  errors,
  counter,
  children,
}: {
  id: string;
  label: string;
  hint: string;
  errors?: FieldError[];
  counter?: React.ReactNode;
  children: React.ReactNode;
}) {
  return (
    <div className={`field${errors?.length ? " invalid" : ""}`}>
      <div className="spread">
        <label htmlFor={id}>
          {label} <span className="hint">{hint}</span>
        </label>
        {counter}
      </div>
      {children}
      <div id={errorsId(id)}>
        {withContentKeys(errors ?? [], (error) => `${error.field} ${error.message}`).map(([key, error]) => (
          <div key={key} className="field-error" role="alert" data-testid={`error-${id}`}>
            {error.field.includes(".") ? <code>{error.field}</code> : null} {error.message}
          </div>
        ))}
      </div>
    </div>
  );
}
