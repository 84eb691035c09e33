import "server-only";
import { SECRET_MASK } from "../../secrets/scrub";
import type { McpServerConfig } from "./config";

export { SECRET_MASK as HIDDEN_SECRET };

/** The secret values of a server's configuration, apart from it: what is stored encrypted. */
export interface McpConfigSecrets {
  env?: Record<string, string>;
  headers?: Record<string, string>;
  /** The arguments marked secret, by their index in `args`. */
  args?: Record<string, string>;
  /** The URL's credentials and query-parameter values, as written in the URL (percent-encoded). */
  url?: { username?: string; password?: string; query?: string[] };
}

const maskValues = (values: Record<string, string>) => Object.fromEntries(Object.keys(values).map((key) => [key, SECRET_MASK]));

/** Query parameters of a URL's search (without "?"), each value replaced by what `replace` gives for it in order. */
function mapQueryValues(search: string, replace: (value: string) => string): string {
  return search
    .split("&")
    .map((part) => {
      const equals = part.indexOf("=");
      return equals < 0 || equals === part.length - 1 ? part : `${part.slice(0, equals + 1)}${replace(part.slice(equals + 1))}`;
    })
    .join("&");
}

function splitUrl(url: string): { url: string; secrets?: NonNullable<McpConfigSecrets["url"]> } {
  const parsed = new URL(url);
  const secrets: NonNullable<McpConfigSecrets["url"]> = {};
  if (parsed.username) [secrets.username, parsed.username] = [parsed.username, SECRET_MASK];
  if (parsed.password) [secrets.password, parsed.password] = [parsed.password, SECRET_MASK];
  const query: string[] = [];
  if (parsed.search.length > 1) {
    parsed.search = mapQueryValues(parsed.search.slice(1), (value) => {
      query.push(value);
      return SECRET_MASK;
    });
  }
  if (query.length) secrets.query = query;
  return Object.keys(secrets).length ? { url: parsed.href, secrets } : { url };
}

function joinUrl(url: string, secrets: McpConfigSecrets["url"]): string {
  if (!secrets) return url;
  const parsed = new URL(url);
  if (secrets.username !== undefined) parsed.username = secrets.username;
  if (secrets.password !== undefined) parsed.password = secrets.password;
  const query = [...(secrets.query ?? [])];
  if (query.length && parsed.search.length > 1) parsed.search = mapQueryValues(parsed.search.slice(1), (value) => query.shift() ?? value);
  return parsed.href;
}

/**
 * A configuration as two parts: the public one, where every secret is the placeholder ********
 * (env values, header values, the URL's user, password and query values, arguments marked
 * secret), safe to store in the clear, show and audit; and the secrets, to store encrypted.
 */
export function splitMcpSecrets<Config extends McpServerConfig>(config: Config): { config: Config; secrets: McpConfigSecrets } {
  const split = splitConfig(config);
  return { config: split.config as Config, secrets: split.secrets };
}

function splitConfig(config: McpServerConfig): { config: McpServerConfig; secrets: McpConfigSecrets } {
  const secrets: McpConfigSecrets = {};
  if (config.transport === "stdio") {
    const publicConfig = { ...config };
    if (config.env && Object.keys(config.env).length) [secrets.env, publicConfig.env] = [{ ...config.env }, maskValues(config.env)];
    if (config.args?.some((arg) => typeof arg !== "string")) {
      secrets.args = {};
      publicConfig.args = config.args.map((arg, index) => {
        if (typeof arg === "string") return arg;
        secrets.args![String(index)] = arg.value;
        return { value: SECRET_MASK, secret: true as const };
      });
    }
    return { config: publicConfig, secrets };
  }
  const publicConfig = { ...config };
  if (config.headers && Object.keys(config.headers).length) [secrets.headers, publicConfig.headers] = [{ ...config.headers }, maskValues(config.headers)];
  const url = splitUrl(config.url);
  publicConfig.url = url.url;
  if (url.secrets) secrets.url = url.secrets;
  return { config: publicConfig, secrets };
}

/** The full configuration again, for connecting: the inverse of `splitMcpSecrets`. */
export function joinMcpSecrets<Config extends McpServerConfig>(publicConfig: Config, secrets: McpConfigSecrets): Config {
  return joinConfig(publicConfig, secrets) as Config;
}

function joinConfig(publicConfig: McpServerConfig, secrets: McpConfigSecrets): McpServerConfig {
  if (publicConfig.transport === "stdio") {
    return {
      ...publicConfig,
      ...(publicConfig.env ? { env: { ...publicConfig.env, ...secrets.env } } : {}),
      ...(publicConfig.args
        ? {
            args: publicConfig.args.map((arg, index) =>
              typeof arg === "string" ? arg : { value: secrets.args?.[String(index)] ?? arg.value, secret: true as const },
            ),
          }
        : {}),
    };
  }
  return {
    ...publicConfig,
    ...(publicConfig.headers ? { headers: { ...publicConfig.headers, ...secrets.headers } } : {}),
    url: joinUrl(publicConfig.url, secrets.url),
  };
}

export const hasSecrets = (secrets: McpConfigSecrets) => Object.keys(secrets).length > 0;

/** The config as pages, API responses, exports and audit entries may show it: every secret is ********. */
export function redactMcpConfig<Config extends McpServerConfig>(config: Config): Config {
  return splitMcpSecrets(config).config;
}

function decoded(value: string, plusIsSpace: boolean): string {
  try {
    return decodeURIComponent(plusIsSpace ? value.replace(/\+/g, " ") : value);
  } catch {
    return value;
  }
}

/** A header value's credential without its scheme ("Bearer x" → "x"), and Basic's user:password decoded. */
function headerCredentials(value: string): string[] {
  const match = /^(\S+)\s+(\S.*)$/.exec(value);
  if (!match) return [];
  const credentials = [match[2]];
  if (/^basic$/i.test(match[1])) {
    const pair = Buffer.from(match[2], "base64").toString("utf8");
    credentials.push(pair, pair.slice(pair.indexOf(":") + 1));
  }
  return credentials;
}

/** Every secret value of a full configuration (and its decoded forms): what error messages are scrubbed of. */
export function mcpSecretValues(config: McpServerConfig): string[] {
  const { secrets } = splitMcpSecrets(config);
  const values = [
    ...Object.values(secrets.env ?? {}),
    ...Object.values(secrets.headers ?? {}).flatMap((value) => [value, ...headerCredentials(value)]),
    ...Object.values(secrets.args ?? {}),
  ];
  const url = secrets.url;
  for (const value of [url?.username, url?.password]) if (value) values.push(value, decoded(value, false));
  for (const value of url?.query ?? []) values.push(value, decoded(value, true));
  return [...new Set(values.filter((value) => value.length > 0))];
}
