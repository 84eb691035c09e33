import type { UseFormRegister } from "react-hook-form";
import type { FieldError } from "@/lib/tools/validate";
import { FieldErrors, errorsUnder } from "./field-errors";
import type { CredentialMode, McpAddFormValues, Transport } from "./mcp-add-form-schema";

/**
 * Whose credential reaches the server: the configuration's, shared by everyone, or each person's
 * own (a secret they enter once, or an OAuth sign-in at the server's authorization server).
 */
export function McpCredentialsField({
  register,
  mode,
  transport,
  problems,
}: {
  register: UseFormRegister<McpAddFormValues>;
  mode: CredentialMode;
  transport: Transport;
  problems: FieldError[];
}) {
  const target = transport === "http" ? { label: "Header", placeholder: "Authorization" } : { label: "Environment variable", placeholder: "API_TOKEN" };
  return (
    <div className="field">
      <label htmlFor="mcp-credential-mode">
        Credentials <span className="hint">a per-person server is called with each person&apos;s own credential, never a shared one</span>
      </label>
      <select id="mcp-credential-mode" {...register("credentialMode")} data-testid="mcp-credential-mode">
        <option value="shared">Shared: the headers or environment above, for everyone</option>
        <option value="per-user-secret">Per person: a secret each person enters once</option>
        <option value="per-user-oauth" disabled={transport !== "http"}>
          Per person: OAuth sign-in at the server (HTTP only)
        </option>
      </select>
      {mode === "per-user-secret" && (
        <div className="row">
          <input
            {...register("credentialTarget")}
            className="mono"
            aria-label={target.label}
            placeholder={target.placeholder}
            spellCheck={false}
            data-testid="mcp-credential-target"
          />
          {transport === "http" && (
            <input
              {...register("credentialPrefix")}
              className="mono"
              aria-label="Written before the secret"
              placeholder="Bearer "
              spellCheck={false}
              data-testid="mcp-credential-prefix"
            />
          )}
        </div>
      )}
      <FieldErrors problems={errorsUnder(problems, "credentials")} testId="mcp-errors-credentials" />
    </div>
  );
}
