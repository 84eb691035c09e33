import { z } from "zod";

/**
 * A server name is the prefix of its tools' names (`server__tool`). Without "__" inside and "_"
 * at the end, the prefix is unambiguous: tools of two servers can never get the same name.
 */
const MCP_SERVER_NAME_PATTERN = /^[a-z0-9][a-z0-9_-]{0,31}$/;

const serverName = z
  .string()
  .regex(MCP_SERVER_NAME_PATTERN, "A server name is 1-32 lowercase letters, digits, '_' or '-', starting with a letter or digit.")
  .refine((name) => !name.includes("__") && !name.endsWith("_"), {
    message: "A server name cannot contain '__' or end with '_': tool names are built as <server>__<tool>.",
  });

/** Environment variables or HTTP headers: names that a shell and fetch accept, each named in the error. */
function namedValues(namePattern: RegExp, what: string) {
  return z
    .record(z.string(), z.string().max(10_000))
    .refine((values) => Object.keys(values).length <= 100, `At most 100 ${what}s.`)
    .superRefine((values, ctx) => {
      for (const key of Object.keys(values)) {
        if (!namePattern.test(key)) ctx.addIssue({ code: "custom", message: `"${key}" is not a valid ${what} name.`, path: [key] });
      }
    });
}

/** An argument is a plain string, or `{ value, secret: true }` when it holds a credential: stored encrypted, shown as ********. */
const argument = z.union([z.string().max(4_000), z.strictObject({ value: z.string().max(4_000), secret: z.literal(true) })], {
  error: 'An argument is a string, or { "value": "…", "secret": true } for a secret one.',
});

/**
 * What a listing of the server's does with a tool whose text has medium poisoning findings
 * (lib/tools/poisoning.ts): hold it for review (the default) or approve it with the listing.
 * High findings are always held.
 */
const mediumFindings = z.enum(["review", "auto"], { error: 'mediumFindings is "review" or "auto".' }).optional();

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

const sharedCredentials = z.strictObject({ mode: z.literal("shared") });

/**
 * Whose credential reaches the server: "shared" (the default: what the configuration holds, for
 * everyone) or each calling person's own, which they enter once ("per-user-secret": sent in the
 * named header, or environment variable of a stdio server's process of their own) or get by
 * signing in at the server's authorization server ("per-user-oauth", HTTP only).
 */
const stdioCredentials = z.discriminatedUnion(
  "mode",
  [sharedCredentials, z.strictObject({ mode: z.literal("per-user-secret"), env: z.string().regex(ENV_NAME, "env is an environment variable's name.") })],
  { error: 'credentials.mode is "shared" or "per-user-secret" (with env) for a stdio server.' },
);

const httpCredentials = z.discriminatedUnion(
  "mode",
  [
    sharedCredentials,
    z.strictObject({
      mode: z.literal("per-user-secret"),
      header: z.string().regex(HEADER_NAME, "header is an HTTP header's name."),
      /** Written before the person's secret, e.g. "Bearer ". */
      prefix: z.string().max(40).optional(),
    }),
    z.strictObject({ mode: z.literal("per-user-oauth"), scope: z.string().trim().max(1_000).optional() }),
  ],
  { error: 'credentials.mode is "shared", "per-user-secret" (with header) or "per-user-oauth".' },
);

const McpStdioConfigSchema = z.strictObject({
  name: serverName,
  mediumFindings,
  transport: z.literal("stdio"),
  command: z.string().trim().min(1, "The command is required.").max(1_000),
  args: z.array(argument).max(100).optional(),
  env: namedValues(ENV_NAME, "environment variable").optional(),
  credentials: stdioCredentials.optional(),
});

const McpHttpConfigSchema = z.strictObject({
  name: serverName,
  mediumFindings,
  transport: z.literal("http"),
  url: z.url({ protocol: /^https?$/, error: "The URL must be an http:// or https:// address." }).max(2_000),
  headers: namedValues(HEADER_NAME, "HTTP header").optional(),
  credentials: httpCredentials.optional(),
});

/** The configured value a person's credential would stand beside: a per-user server must not also carry a shared one there. */
function sharedCredentialProblem(
  config: z.infer<typeof McpStdioConfigSchema> | z.infer<typeof McpHttpConfigSchema>,
): { message: string; path: string[] } | null {
  if (config.transport === "stdio") {
    if (config.credentials?.mode !== "per-user-secret") return null;
    const { env } = config.credentials;
    return config.env && env in config.env ? { message: `${env} is each person's own secret: remove it from env.`, path: ["env", env] } : null;
  }
  const credentials = config.credentials;
  if (!credentials || credentials.mode === "shared") return null;
  const header = credentials.mode === "per-user-secret" ? credentials.header : "authorization";
  const clash = Object.keys(config.headers ?? {}).find((name) => name.toLowerCase() === header.toLowerCase());
  return clash ? { message: `${clash} carries each person's own credential: remove it from headers.`, path: ["headers", clash] } : null;
}

export const McpServerConfigSchema = z.discriminatedUnion("transport", [McpStdioConfigSchema, McpHttpConfigSchema]).superRefine((config, ctx) => {
  const problem = sharedCredentialProblem(config);
  if (problem) ctx.addIssue({ code: "custom", ...problem });
});

export type McpStdioConfig = z.infer<typeof McpStdioConfigSchema>;
export type McpHttpConfig = z.infer<typeof McpHttpConfigSchema>;
export type McpServerConfig = z.infer<typeof McpServerConfigSchema>;
export type McpArgument = NonNullable<McpStdioConfig["args"]>[number];

/** Whether each person calls the server with a credential of their own (never a shared one). */
export const isPerUser = (config: McpServerConfig): boolean => (config.credentials?.mode ?? "shared") !== "shared";

/** An argument's value, whether it is secret or not. */
export const argumentValue = (arg: McpArgument): string => (typeof arg === "string" ? arg : arg.value);
