import { argumentValue, type McpStdioConfig } from "./config";

type Env = Record<string, string | undefined>;

export const STDIO_COMMANDS_ENV = "TOOLSHED_MCP_STDIO_COMMANDS";
/** The repository's demo server, as the demo catalog starts it. */
export const DEFAULT_STDIO_COMMANDS = "node mcp-servers/demo-server.mjs";

/** One allowed command line: the command, then the arguments every use of it starts with. */
export interface StdioCommandLine {
  command: string;
  args: string[];
}

/**
 * `TOOLSHED_MCP_STDIO_COMMANDS`: command lines separated by ";", each made of words separated by
 * whitespace (no quoting). Unset means the default (the demo server); set but empty allows none.
 */
export function parseStdioCommands(text: string | undefined): StdioCommandLine[] {
  return (text ?? DEFAULT_STDIO_COMMANDS)
    .split(";")
    .map((line) => line.trim().split(/\s+/).filter(Boolean))
    .filter((words) => words.length > 0)
    .map(([command, ...args]) => ({ command, args }));
}

export const allowedStdioCommands = (env: Env = process.env) => parseStdioCommands(env[STDIO_COMMANDS_ENV]);

export const formatCommandLine = (line: StdioCommandLine) => [line.command, ...line.args].join(" ");

/** Allowed when the command is an allowed line's command and the arguments start with that line's arguments. */
export function isAllowedStdioCommand(config: Pick<McpStdioConfig, "command" | "args">, allowed: StdioCommandLine[]): boolean {
  const args = (config.args ?? []).map(argumentValue);
  return allowed.some((line) => line.command === config.command && line.args.every((arg, index) => args[index] === arg));
}

/**
 * Environment variables that would make an allowed command run other code than the operator
 * allowed (a preloaded library, `NODE_OPTIONS=--import …`, a shell's start-up file, another
 * package index), or change which program a command name finds: never set from a configuration.
 */
const FORBIDDEN_ENV_NAMES = new Set([
  "PATH",
  "NODE_OPTIONS",
  "NODE_PATH",
  "NODE_REPL_EXTERNAL_MODULE",
  "BASH_ENV",
  "ENV",
  "SHELLOPTS",
  "BASHOPTS",
  "PS4",
  "IFS",
  "PYTHONPATH",
  "PYTHONHOME",
  "PYTHONSTARTUP",
  "PYTHONINSPECT",
  "PERL5OPT",
  "PERL5LIB",
  "PERLLIB",
  "PERL5DB",
  "RUBYOPT",
  "RUBYLIB",
  "JAVA_TOOL_OPTIONS",
  "_JAVA_OPTIONS",
  "JDK_JAVA_OPTIONS",
  "CLASSPATH",
  "GCONV_PATH",
]);
const FORBIDDEN_ENV_PREFIXES = ["LD_", "DYLD_", "BASH_FUNC_", "NPM_CONFIG_", "UV_", "PIP_", "GIT_"];

export function isForbiddenEnvName(name: string): boolean {
  const upper = name.toUpperCase();
  return FORBIDDEN_ENV_NAMES.has(upper) || FORBIDDEN_ENV_PREFIXES.some((prefix) => upper.startsWith(prefix));
}

/** Why this stdio configuration may not be started, on which field; undefined when it may. */
export function stdioPolicyProblem(
  config: Pick<McpStdioConfig, "command" | "args" | "env">,
  env: Env = process.env,
): { field: string; message: string } | undefined {
  const allowed = allowedStdioCommands(env);
  if (!isAllowedStdioCommand(config, allowed)) {
    const lines = allowed.length ? allowed.map((line) => `"${formatCommandLine(line)}"`).join(", ") : "none";
    return {
      field: "command",
      message: `The command "${config.command}" with these arguments is not one the operator allowed for stdio MCP servers. Allowed command lines (${STDIO_COMMANDS_ENV}, further arguments may follow): ${lines}.`,
    };
  }
  const forbidden = Object.keys(config.env ?? {}).find(isForbiddenEnvName);
  if (forbidden !== undefined) {
    return {
      field: `env.${forbidden}`,
      message: `The environment variable "${forbidden}" may not be set for a stdio MCP server: it could make the allowed command run other code (refused: PATH, NODE_OPTIONS, LD_*, BASH_ENV and the like).`,
    };
  }
  return undefined;
}

/**
 * The whole environment of a server's process: its configured variables plus `PATH`, nothing
 * else of ours (no HOME, USER, API keys or the secret key). The MCP SDK adds HOME, LOGNAME,
 * SHELL, TERM and USER from our environment to whatever it is given: those are set to undefined
 * here, which Node's spawn leaves out of the child's environment.
 */
export function childEnvironment(config: Pick<McpStdioConfig, "env">, inheritedNames: readonly string[], env: Env = process.env): Record<string, string> {
  const blanked = Object.fromEntries(inheritedNames.map((name) => [name, undefined]));
  return { ...blanked, ...(env.PATH === undefined ? {} : { PATH: env.PATH }), ...config.env } as Record<string, string>;
}
