import type { UseFormRegisterReturn } from "react-hook-form";
import type { invalidProps } from "./field-errors";

/** A labelled one-line input of a form, in a field; a list input says it takes comma-separated values. */
export function LabelledInput({
  label,
  registration,
  placeholder,
  list,
  commaSeparated = false,
  className,
  invalid,
}: {
  label: string;
  registration: UseFormRegisterReturn;
  placeholder?: string;
  list?: string;
  commaSeparated?: boolean;
  className?: string;
  /** invalidProps of the field, while it has problems. */
  invalid?: ReturnType<typeof invalidProps>;
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
          {...registration}
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
