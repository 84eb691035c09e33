import type { UseFormRegister } from "react-hook-form";
import type { FieldError } from "@/lib/tools/validate";
import { FieldErrors, errorsUnder, invalidProps } from "./field-errors";
import type { McpAddFormValues } from "./mcp-add-form-schema";

interface FieldsProps {
  register: UseFormRegister<McpAddFormValues>;
  problems: FieldError[];
}

/** One line of the form (name, command, URL): its label with a hint, the input, and the problems the server found in it. */
export function McpTextField({
  field,
  label,
  hint,
  placeholder,
  register,
  problems,
}: FieldsProps & { field: "name" | "command" | "url"; label: string; hint: string; placeholder: string }) {
  const id = `mcp-${field}`;
  return (
    <>
      <label htmlFor={id}>
        {label} <span className="hint">{hint}</span>
      </label>
      <input
        id={id}
        {...register(field)}
        className="mono example-placeholder"
        placeholder={placeholder}
        spellCheck={false}
        data-testid={id}
        {...invalidProps(id, errorsUnder(problems, field))}
      />
      <FieldErrors problems={errorsUnder(problems, field)} testId={`mcp-errors-${field}`} fieldId={id} />
    </>
  );
}

/** What a stdio server runs: its command, arguments (plain and secret) and environment. */
export function McpStdioFields({ register, problems }: FieldsProps) {
  return (
    <>
      <div className="field">
        <McpTextField
          field="command"
          label="Command"
          hint="the program only, e.g. node or npx; run from the app's working directory"
          placeholder="e.g. node"
          register={register}
          problems={problems}
        />
      </div>
      <div className="grid-2">
        <div className="field">
          <label htmlFor="mcp-args">
            Arguments <span className="hint">one argument per line, no shell quoting</span>
          </label>
          <textarea
            id="mcp-args"
            rows={3}
            {...register("args")}
            className="mono example-placeholder"
            placeholder={"mcp-servers/demo-server.mjs\n--verbose"}
            spellCheck={false}
            data-testid="mcp-args"
            {...invalidProps("mcp-args", errorsUnder(problems, "args"))}
          />
          <label htmlFor="mcp-secret-args">
            Secret arguments{" "}
            <span className="hint">
              after the others, one per line; stored encrypted and never shown again, but visible to every local user (ps) while the server runs: a variable the
              operator allows (Environment) keeps a secret better
            </span>
          </label>
          <textarea
            id="mcp-secret-args"
            rows={2}
            {...register("secretArgs")}
            className="mono example-placeholder"
            placeholder="--api-key=…"
            spellCheck={false}
            autoComplete="off"
            data-testid="mcp-secret-args"
          />
          <FieldErrors problems={errorsUnder(problems, "args")} testId="mcp-errors-args" fieldId="mcp-args" />
        </div>
        <div className="field">
          <label htmlFor="mcp-env">
            Environment{" "}
            <span className="hint">KEY=value, one per line, only names the operator allows for the command; values are secret and never shown again</span>
          </label>
          <textarea
            id="mcp-env"
            rows={3}
            {...register("env")}
            className="mono example-placeholder"
            placeholder="API_TOKEN=…"
            spellCheck={false}
            autoComplete="off"
            data-testid="mcp-env"
            {...invalidProps("mcp-env", errorsUnder(problems, "env"))}
          />
          <FieldErrors problems={errorsUnder(problems, "env")} testId="mcp-errors-env" fieldId="mcp-env" />
        </div>
      </div>
    </>
  );
}

/** Where a Streamable HTTP server answers, and the headers sent to it. */
export function McpHttpFields({ register, problems }: FieldsProps) {
  return (
    <>
      <div className="field">
        <McpTextField
          field="url"
          label="URL"
          hint="the Streamable HTTP endpoint, http:// or https://"
          placeholder="e.g. https://example.com/mcp"
          register={register}
          problems={problems}
        />
      </div>
      <div className="field">
        <label htmlFor="mcp-headers">
          Headers <span className="hint">Name: value, one per line; values are secret and never shown again</span>
        </label>
        <textarea
          id="mcp-headers"
          rows={3}
          {...register("headers")}
          className="mono example-placeholder"
          placeholder="Authorization: Bearer …"
          spellCheck={false}
          autoComplete="off"
          data-testid="mcp-headers"
          {...invalidProps("mcp-headers", errorsUnder(problems, "headers"))}
        />
        <FieldErrors problems={errorsUnder(problems, "headers")} testId="mcp-errors-headers" fieldId="mcp-headers" />
      </div>
    </>
  );
}

/** What the server's listings do with a tool whose text has medium poisoning findings (high ones are always held for review). */
export function McpMediumFindingsField({ register }: Pick<FieldsProps, "register">) {
  return (
    <div className="field">
      <label htmlFor="mcp-medium-findings">
        Tools with medium poisoning findings <span className="hint">high findings are always held for review</span>
      </label>
      <select id="mcp-medium-findings" {...register("mediumFindings")} data-testid="mcp-medium-findings">
        <option value="review">Hold for review (recommended)</option>
        <option value="auto">Approve with the server's listing</option>
      </select>
    </div>
  );
}
