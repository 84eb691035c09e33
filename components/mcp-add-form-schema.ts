import type { FieldError as FormFieldError } from "react-hook-form";
import { z } from "zod";
import type { McpServerConfig } from "@/lib/sources/mcp/config";
import type { FieldError } from "@/lib/tools/validate";

const TRANSPORTS = ["stdio", "http"] as const;
export type Transport = (typeof TRANSPORTS)[number];
const CREDENTIAL_MODES = ["shared", "per-user-secret", "per-user-oauth"] as const;
export type CredentialMode = (typeof CREDENTIAL_MODES)[number];

/** Non-empty lines, trimmed. */
const lines = (text: string) =>
  text
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);

/** `KEY=value` or `Name: value` lines into a record; every malformed or repeated line is a problem. */
function parsePairs(text: string, separator: "=" | ":", example: string): { values: Record<string, string>; problems: string[] } {
  const values: Record<string, string> = {};
  const problems: string[] = [];
  text.split("\n").forEach((raw, index) => {
    const line = raw.trim();
    if (!line) return;
    const at = line.indexOf(separator);
    const key = at > 0 ? line.slice(0, at).trim() : "";
    if (!key) {
      problems.push(`Line ${index + 1}: write ${example}.`);
      return;
    }
    if (key in values) problems.push(`Line ${index + 1}: "${key}" is given twice.`);
    values[key] = line.slice(at + 1).trim();
  });
  return { values, problems };
}

/**
 * The add-MCP-server form as typed (lists one item a line) and the body it sends. The server checks
 * that body with its own schema (lib/sources/mcp/config.ts, server-only) and its problems come back
 * under their fields; this one checks only what the form must understand itself: the pairs' lines.
 */
export const mcpAddFormSchema = z
  .object({
    name: z.string(),
    transport: z.enum(TRANSPORTS),
    command: z.string(),
    args: z.string(),
    secretArgs: z.string(),
    env: z.string(),
    url: z.string(),
    headers: z.string(),
    mediumFindings: z.enum(["review", "auto"]),
    credentialMode: z.enum(CREDENTIAL_MODES),
    /** The header (HTTP) or environment variable (stdio) a person's own secret goes in. */
    credentialTarget: z.string(),
    credentialPrefix: z.string(),
  })
  .transform((form, ctx): McpServerConfig => {
    const pairs = (field: "env" | "headers", separator: "=" | ":", example: string) => {
      const parsed = parsePairs(form[field], separator, example);
      for (const message of parsed.problems) ctx.addIssue({ code: "custom", path: [field], message });
      return Object.keys(parsed.values).length ? parsed.values : undefined;
    };
    const name = form.name.trim();
    // Review is the default: only a choice of auto is written into the configuration.
    const medium = form.mediumFindings === "auto" ? { mediumFindings: "auto" as const } : {};
    const target = form.credentialTarget.trim();
    if (form.transport === "stdio") {
      // Secret arguments follow the others; they are stored encrypted and shown as ********.
      const args = [...lines(form.args), ...lines(form.secretArgs).map((value) => ({ value, secret: true as const }))];
      const env = pairs("env", "=", "KEY=value");
      const credentials = form.credentialMode === "shared" ? {} : { credentials: { mode: form.credentialMode, env: target } };
      return {
        name,
        ...medium,
        transport: "stdio",
        command: form.command.trim(),
        ...(args.length ? { args } : {}),
        ...(env && { env }),
        ...(credentials as object),
      } as McpServerConfig;
    }
    const headers = pairs("headers", ":", "Name: value");
    return { name, ...medium, transport: "http", url: form.url.trim(), ...(headers && { headers }), ...httpCredentials(form) } as McpServerConfig;
  });

/** The credentials part of an HTTP server's body: none for a shared one (the default). */
function httpCredentials(form: { credentialMode: CredentialMode; credentialTarget: string; credentialPrefix: string }) {
  if (form.credentialMode === "per-user-oauth") return { credentials: { mode: "per-user-oauth" } };
  if (form.credentialMode === "shared") return {};
  const prefix = form.credentialPrefix ? { prefix: form.credentialPrefix } : {};
  return { credentials: { mode: "per-user-secret", header: form.credentialTarget.trim(), ...prefix } };
}

export type McpAddFormValues = z.input<typeof mcpAddFormSchema>;

/** An empty form, on `transport`. */
export const blankMcpAddForm = (transport: Transport): McpAddFormValues => ({
  name: "",
  transport,
  command: "",
  args: "",
  secretArgs: "",
  env: "",
  url: "",
  headers: "",
  mediumFindings: "review",
  credentialMode: "shared",
  credentialTarget: "",
  credentialPrefix: "",
});

/** The form's own problems as <FieldErrors> shows them: every message of every field (the form keeps them all, criteriaMode "all"). */
export function formProblems(errors: Partial<Record<keyof McpAddFormValues, FormFieldError>>): FieldError[] {
  return Object.entries(errors).flatMap(([field, error]) => {
    if (!error) return [];
    const messages = Object.values(error.types ?? {})
      .flat()
      .filter((message): message is string => typeof message === "string");
    return (messages.length ? messages : [error.message ?? ""]).map((message) => ({ field, message }));
  });
}
