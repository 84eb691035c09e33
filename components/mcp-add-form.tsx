"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { type UseFormRegister, useForm, useWatch } from "react-hook-form";
import { toast } from "sonner";
import { addMcpServerAction } from "@/app/catalogs/[catalog]/sources/actions";
import type { McpServerConfig } from "@/lib/sources/mcp/config";
import type { FieldError } from "@/lib/tools/validate";
import { FieldErrors, errorsUnder } from "./field-errors";
import { blankMcpAddForm, formProblems, type McpAddFormValues, mcpAddFormSchema, type Transport } from "./mcp-add-form-schema";
import { McpHttpFields, McpMediumFindingsField, McpStdioFields, McpTextField } from "./mcp-add-form-fields";
import { McpAddWaiting } from "./mcp-add-waiting";
import { McpCredentialsField } from "./mcp-credentials-field";
import { mcpServersKey } from "./mcp-server-row";

export const INSTANCE_ADMIN_NOTE = "Only instance admins add stdio servers (they run a command on this host).";

/** The fields each transport shows: a problem of another field is listed under the form. */
const SHOWN: Record<Transport, string[]> = {
  stdio: ["name", "transport", "command", "args", "env", "credentials"],
  http: ["name", "transport", "url", "headers", "credentials"],
};

/** Adds an MCP server, which is connected and synced at once; a failed add keeps the draft and shows the server's problems under their fields. */
export function AddMcpServerForm({ catalogId, transports, connectTimeoutMs }: { catalogId: string; transports: Transport[]; connectTimeoutMs: number }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const form = useForm({ resolver: zodResolver(mcpAddFormSchema), defaultValues: blankMcpAddForm(transports[0]), criteriaMode: "all" });
  // The server's problems with the last body sent; the form's own (its lines) are in formState.errors.
  const [serverProblems, setServerProblems] = useState<FieldError[]>([]);
  const add = useMutation({
    mutationFn: async (body: McpServerConfig) => {
      const result = await addMcpServerAction(catalogId, body);
      if (!result.ok) {
        setServerProblems(result.error.problems);
        throw new Error(result.error.message);
      }
      return result.data;
    },
    onSuccess: ({ server, sync }) => {
      setServerProblems([]);
      form.reset(blankMcpAddForm(form.getValues("transport")));
      if (sync.error) toast.error(`Added ${server.name}, but it could not be reached`, { description: sync.error, duration: 10_000 });
      else toast.success(`Added ${server.name}: ${sync.added.length} tool(s) registered`);
      void queryClient.invalidateQueries({ queryKey: mcpServersKey(catalogId) });
      router.refresh();
    },
    onError: (error) => toast.error(error.message),
  });
  const submit = form.handleSubmit(
    (body) => add.mutate(body),
    () => {
      setServerProblems([]);
      toast.error("Fix the marked lines first");
    },
  );

  const transport = useWatch({ control: form.control, name: "transport" });
  const credentialMode = useWatch({ control: form.control, name: "credentialMode" });
  const problems = [...formProblems(form.formState.errors), ...serverProblems];
  const rest = problems.filter((problem) => !SHOWN[transport].some((field) => problem.field === field || problem.field.startsWith(`${field}.`)));
  return (
    <form className="card stack" data-testid="mcp-form" onSubmit={submit}>
      <h3 style={{ margin: 0 }}>Add MCP server</h3>
      <NameAndTransport register={form.register} problems={problems} transports={transports} />
      {transport === "stdio" ? <McpStdioFields register={form.register} problems={problems} /> : <McpHttpFields register={form.register} problems={problems} />}
      <McpCredentialsField register={form.register} mode={credentialMode} transport={transport} problems={problems} />
      <McpMediumFindingsField register={form.register} />
      <FieldErrors problems={rest} testId="mcp-errors-other" />
      <div className="row end">
        <span className="muted small">The server is connected and its tools listed as soon as it is added.</span>
        <button type="submit" className="primary" disabled={add.isPending} data-testid="mcp-add">
          {add.isPending ? "Connecting…" : "Add server"}
        </button>
      </div>
      {add.isPending && add.variables && (
        <McpAddWaiting
          name={add.variables.name}
          transport={add.variables.transport}
          command={add.variables.transport === "stdio" ? add.variables.command : ""}
          connectTimeoutMs={connectTimeoutMs}
        />
      )}
    </form>
  );
}

function NameAndTransport({
  register,
  problems,
  transports,
}: {
  register: UseFormRegister<McpAddFormValues>;
  problems: FieldError[];
  transports: Transport[];
}) {
  return (
    <div className="row" style={{ alignItems: "flex-start" }}>
      <div className="field" style={{ flex: 1 }}>
        <McpTextField
          field="name"
          label="Name"
          hint="lowercase; prefixes its tools: name__tool"
          placeholder="e.g. notes"
          register={register}
          problems={problems}
        />
      </div>
      <div className="field">
        <label htmlFor="mcp-transport">Transport</label>
        <select id="mcp-transport" {...register("transport")} data-testid="mcp-transport">
          <option value="stdio" disabled={!transports.includes("stdio")}>
            {transports.includes("stdio") ? "stdio (run a command)" : "stdio (instance admins only)"}
          </option>
          <option value="http">Streamable HTTP (URL)</option>
        </select>
        {!transports.includes("stdio") && (
          <p className="hint" data-testid="mcp-stdio-note">
            {INSTANCE_ADMIN_NOTE}
          </p>
        )}
        <FieldErrors problems={errorsUnder(problems, "transport")} />
      </div>
    </div>
  );
}
