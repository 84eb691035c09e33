import { SECRET_MASK } from "../secrets/scrub";
import type { McpServerConfig } from "../sources/mcp/config";
import type { FieldError } from "../tools/validate";

/**
 * Secrets in a catalog file are references to environment variables, `${env:NAME}`, never values:
 * the file goes into a repository and a pull request. Export writes a reference wherever the
 * stored configuration holds a secret (lib/sources/mcp/secrets.ts says which positions those are);
 * apply resolves them from the environment of `toolshed apply` only when it writes a server.
 */
const REFERENCE = /\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** A variable name made of a server's name and a part of its configuration: GITHUB_AUTHORIZATION. */
const variableName = (...parts: string[]) =>
  parts
    .join("_")
    .toUpperCase()
    .replace(/[^A-Z0-9_]/g, "_");

const reference = (name: string) => `\${env:${name}}`;

/** A query parameter's name as written, decoded when it can be (a stray "%" stays as it is). */
function decodedName(name: string): string {
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

/** The query of a URL (without "?") with the values `replace` gives for each masked one, by the parameter's name. */
function mapQuery(search: string, replace: (name: string, value: string) => string): string {
  return search
    .split("&")
    .map((part) => {
      const equals = part.indexOf("=");
      if (equals < 0) return part;
      return `${part.slice(0, equals + 1)}${replace(decodedName(part.slice(0, equals)), part.slice(equals + 1))}`;
    })
    .join("&");
}

/** A stored URL (its secrets masked) with a reference in each masked part; written as text: URL would escape the braces. */
function urlWithReferences(server: string, masked: string): string {
  const url = new URL(masked);
  const user = url.username === SECRET_MASK ? reference(variableName(server, "url", "username")) : url.username;
  const password = url.password === SECRET_MASK ? reference(variableName(server, "url", "password")) : url.password;
  const userinfo = user || password ? `${user}${password ? `:${password}` : ""}@` : "";
  const query =
    url.search.length > 1
      ? `?${mapQuery(url.search.slice(1), (name, value) => (value === SECRET_MASK ? reference(variableName(server, "url", name)) : value))}`
      : url.search;
  return `${url.protocol}//${userinfo}${url.host}${url.pathname}${query}${url.hash}`;
}

/** A stored (masked) configuration as a catalog file writes it: each masked secret a `${env:…}` reference. */
export function withSecretReferences(config: McpServerConfig): McpServerConfig {
  const masked = (values: Record<string, string> | undefined, name: (key: string) => string) =>
    values && Object.fromEntries(Object.entries(values).map(([key, value]) => [key, value === SECRET_MASK ? reference(name(key)) : value]));
  if (config.transport === "stdio") {
    return {
      ...config,
      ...(config.args && {
        args: config.args.map((arg, index) =>
          typeof arg === "string" ? arg : { value: reference(variableName(config.name, "arg", String(index))), secret: true as const },
        ),
      }),
      ...(config.env && { env: masked(config.env, (key) => key) }),
    };
  }
  return {
    ...config,
    url: urlWithReferences(config.name, config.url),
    ...(config.headers && { headers: masked(config.headers, (key) => variableName(config.name, key)) }),
  };
}

const hasReference = (text: string) => new RegExp(REFERENCE.source).test(text);

/**
 * Where a file's server configuration breaks the rule "secrets are references, and only secrets
 * are": a secret position (env value, header value, secret argument, the URL's user, password and
 * query values) without a reference, or a reference anywhere else. `field` is the server's path.
 */
export function secretReferenceProblems(config: McpServerConfig, field: string): FieldError[] {
  const problems: FieldError[] = [];
  const literal = (path: string) =>
    problems.push({ field: `${field}.${path}`, message: `This is a secret: write it as a reference such as \${env:NAME}, never its value.` });
  const misplaced = (path: string, hint = "") =>
    problems.push({
      field: `${field}.${path}`,
      message: `A reference \${env:…} stands only where a secret goes (env and header values, secret arguments, the URL's user, password and query values)${hint}.`,
    });
  if (config.transport === "stdio") {
    if (hasReference(config.command)) misplaced("command");
    config.args?.forEach((arg, index) => {
      if (typeof arg === "string") {
        if (hasReference(arg)) misplaced(`args.${index}`, `: mark this argument secret, {"value": "…", "secret": true}`);
      } else if (!hasReference(arg.value)) literal(`args.${index}.value`);
    });
    for (const [key, value] of Object.entries(config.env ?? {})) if (value !== "" && !hasReference(value)) literal(`env.${key}`);
    return problems;
  }
  for (const [key, value] of Object.entries(config.headers ?? {})) if (value !== "" && !hasReference(value)) literal(`headers.${key}`);
  // Parsed with each reference as a plain word, so that its place in the URL is known.
  const url = new URL(config.url.replace(new RegExp(REFERENCE.source, "g"), "toolshedreference"));
  const marked = (part: string) => part.includes("toolshedreference");
  if (url.username && !marked(url.username)) literal("url");
  else if (url.password && !marked(url.password)) literal("url");
  else if (
    url.search.length > 1 &&
    url.search
      .slice(1)
      .split("&")
      .some((part) => part.includes("=") && !part.endsWith("=") && !marked(part.split("=")[1]))
  )
    literal("url");
  if (marked(url.host) || marked(url.pathname) || marked(url.hash)) misplaced("url");
  return problems;
}

/** The configuration with every reference replaced by the stored mask: how it compares with a stored (masked) one. */
export function maskReferences(config: McpServerConfig): McpServerConfig {
  return JSON.parse(JSON.stringify(config).replace(new RegExp(REFERENCE.source, "g"), SECRET_MASK)) as McpServerConfig;
}

/**
 * The configuration with each reference replaced by its variable's value in `env` (percent-encoded
 * inside the URL), or the problems: a variable that is not set, named with the path of its reference.
 * Without `env` (the HTTP API: the server's own environment is not the caller's to read) every reference is one.
 */
export function resolveReferences(
  config: McpServerConfig,
  env: Record<string, string | undefined> | undefined,
  field: string,
): { config: McpServerConfig; problems: FieldError[] } {
  const problems: FieldError[] = [];
  const resolve = (text: string, path: string, encode: boolean) =>
    text.replace(new RegExp(REFERENCE.source, "g"), (whole, name: string) => {
      const value = env?.[name];
      // An empty secret is one nobody set.
      if (value === undefined || value === "") {
        problems.push({
          field: `${field}.${path}`,
          message: env
            ? `${whole} is not set (or empty) in the environment of this apply.`
            : `${whole} is read from the environment of \`toolshed apply\` on the command line; the HTTP API has none to read it from (add this server with the CLI or on the Sources page).`,
        });
        return whole;
      }
      return encode ? encodeURIComponent(value) : value;
    });
  const values = (record: Record<string, string> | undefined, path: string) =>
    record && Object.fromEntries(Object.entries(record).map(([key, value]) => [key, resolve(value, `${path}.${key}`, false)]));
  if (config.transport === "stdio") {
    const resolved: McpServerConfig = {
      ...config,
      ...(config.args && {
        args: config.args.map((arg, index) => (typeof arg === "string" ? arg : { ...arg, value: resolve(arg.value, `args.${index}.value`, false) })),
      }),
      ...(config.env && { env: values(config.env, "env") }),
    };
    return { config: resolved, problems };
  }
  const resolved: McpServerConfig = {
    ...config,
    url: resolve(config.url, "url", true),
    ...(config.headers && { headers: values(config.headers, "headers") }),
  };
  return { config: resolved, problems };
}
