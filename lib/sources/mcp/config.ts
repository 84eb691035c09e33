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

const McpStdioConfigSchema = z.strictObject({
  name: serverName,
  mediumFindings,
  transport: z.literal("stdio"),
  command: z.string().trim().min(1, "The command is required.").max(1_000),
  args: z.array(argument).max(100).optional(),
  env: namedValues(/^[A-Za-z_][A-Za-z0-9_]*$/, "environment variable").optional(),
});

const McpHttpConfigSchema = z.strictObject({
  name: serverName,
  mediumFindings,
  transport: z.literal("http"),
  url: z.url({ protocol: /^https?$/, error: "The URL must be an http:// or https:// address." }).max(2_000),
  headers: namedValues(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, "HTTP header").optional(),
});

export const McpServerConfigSchema = z.discriminatedUnion("transport", [McpStdioConfigSchema, McpHttpConfigSchema]);

export type McpStdioConfig = z.infer<typeof McpStdioConfigSchema>;
export type McpHttpConfig = z.infer<typeof McpHttpConfigSchema>;
export type McpServerConfig = z.infer<typeof McpServerConfigSchema>;
export type McpArgument = NonNullable<McpStdioConfig["args"]>[number];

/** An argument's value, whether it is secret or not. */
export const argumentValue = (arg: McpArgument): string => (typeof arg === "string" ? arg : arg.value);
