import "server-only";
import { argumentValue, type McpStdioConfig } from "./config";

type Env = Record<string, string | undefined>;

const STDIO_COMMANDS_ENV = "TOOLSHED_MCP_STDIO_COMMANDS";
/**
 * The repository's demo server, as the demo catalog starts it, with the one variable it reads
 * that is harmless to allow: DEMO_MCP_TOKEN shows how a secret variable is stored and masked.
 * Its test switches (hang, crash, fewer tools) are allowed by the tests that use them.
 */
const DEFAULT_STDIO_COMMANDS = "node mcp-servers/demo-server.mjs env=DEMO_MCP_TOKEN";

/** One allowed command line: the command, the arguments every use of it starts with, and the variables it may set. */
export interface StdioCommandLine {
  command: string;
  args: string[];
  env: string[];
}

const ENV_WORD = "env=";
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A malformed TOOLSHED_MCP_STDIO_COMMANDS: the operator's mistake, which stops the start. */
class StdioCommandsError extends Error {
  constructor(line: string, problem: string) {
    super(`${STDIO_COMMANDS_ENV} is malformed in the line "${line}": ${problem}`);
    this.name = "StdioCommandsError";
  }
}

function parseEnvWord(word: string, line: string): string[] {
  const names = word.slice(ENV_WORD.length).split(",");
  for (const name of names) {
    if (!ENV_NAME.test(name)) {
      throw new StdioCommandsError(
        line,
        `"${name}" in "${word}" is not an environment variable name (names are separated by "," without spaces; no patterns).`,
      );
    }
    // Which program a command name runs is decided by PATH (case-insensitive on Windows).
    if (name.toUpperCase() === "PATH") throw new StdioCommandsError(line, "PATH cannot be allowed: a server always gets Toolshed's own.");
  }
  return names;
}

/**
 * `TOOLSHED_MCP_STDIO_COMMANDS`: command lines separated by ";", each made of words separated by
 * whitespace (no quoting), optionally ending in one word `env=NAME,NAME2`: the environment
 * variables a server started by that line may set (none without it). A word starting with `env=`
 * is never an argument, and anywhere but last it is an error. Unset means the default (the demo
 * server); set but empty allows none. Throws StdioCommandsError on a malformed line.
 */
export function parseStdioCommands(text: string | undefined): StdioCommandLine[] {
  return (text ?? DEFAULT_STDIO_COMMANDS)
    .split(";")
    .map((line) => ({ line: line.trim(), words: line.trim().split(/\s+/).filter(Boolean) }))
    .filter(({ words }) => words.length > 0)
    .map(({ line, words }) => {
      const envWordAt = words.findIndex((word) => word.startsWith(ENV_WORD));
      if (envWordAt === 0) throw new StdioCommandsError(line, "it starts with the env= word instead of a command.");
      if (envWordAt !== -1 && envWordAt !== words.length - 1) {
        throw new StdioCommandsError(line, `the word "${words[envWordAt]}" must be the line's last word (one env= word per line).`);
      }
      const [command, ...args] = envWordAt === -1 ? words : words.slice(0, -1);
      return { command, args, env: envWordAt === -1 ? [] : parseEnvWord(words[envWordAt], line) };
    });
}

export const allowedStdioCommands = (env: Env = process.env) => parseStdioCommands(env[STDIO_COMMANDS_ENV]);

const formatCommandLine = (line: Pick<StdioCommandLine, "command" | "args">) => [line.command, ...line.args].join(" ");

/** The allowed lines this configuration matches: the same command, and arguments that start with the line's arguments. */
export function matchingStdioCommands(config: Pick<McpStdioConfig, "command" | "args">, allowed: StdioCommandLine[]): StdioCommandLine[] {
  const args = (config.args ?? []).map(argumentValue);
  return allowed.filter((line) => line.command === config.command && line.args.every((arg, index) => args[index] === arg));
}

/**
 * Why this stdio configuration may not be started, on which field; undefined when it may. It may
 * when it matches an allowed line and sets only variables that a matching line names (the union
 * of their names when several match: each of them allows this command line).
 */
export function stdioPolicyProblem(
  config: Pick<McpStdioConfig, "command" | "args" | "env">,
  env: Env = process.env,
): { field: string; message: string } | undefined {
  const allowed = allowedStdioCommands(env);
  const matching = matchingStdioCommands(config, allowed);
  if (matching.length === 0) {
    const lines = allowed.length ? allowed.map((line) => `"${formatCommandLine(line)}"`).join(", ") : "none";
    return {
      field: "command",
      message: `The command "${config.command}" with these arguments is not one the operator allowed for stdio MCP servers. Allowed command lines (${STDIO_COMMANDS_ENV}, further arguments may follow): ${lines}.`,
    };
  }
  const allowedNames = new Set(matching.flatMap((line) => line.env));
  const refused = Object.keys(config.env ?? {}).find((name) => !allowedNames.has(name));
  if (refused !== undefined) {
    const names = allowedNames.size ? [...allowedNames].join(", ") : "none";
    return {
      field: `env.${refused}`,
      message: `The environment variable "${refused}" is not one the operator allowed for this command line. Allowed variables (the env= word of its line in ${STDIO_COMMANDS_ENV}): ${names}.`,
    };
  }
  return undefined;
}

/**
 * The whole environment of a server's process: its configured variables plus `PATH`, nothing
 * else of ours (no HOME, USER, API keys or the secret key). The MCP SDK adds HOME, LOGNAME,
 * SHELL, TERM and USER from our environment to whatever it is given: those are set to undefined
 * here, which Node's spawn leaves out of the child's environment. PATH comes last: it decides
 * which program the command names, so a configuration never replaces it.
 */
export function childEnvironment(config: Pick<McpStdioConfig, "env">, inheritedNames: readonly string[], env: Env = process.env): Record<string, string> {
  const blanked = Object.fromEntries(inheritedNames.map((name) => [name, undefined]));
  return { ...blanked, ...config.env, ...(env.PATH === undefined ? {} : { PATH: env.PATH }) } as Record<string, string>;
}
