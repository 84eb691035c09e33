import { McpServerConfigSchema, type McpServerConfig } from "../sources/mcp/config";
import type { FieldError } from "../tools/validate";
import type { ImportFormat } from "./import-formats";

type Entry = Record<string, unknown>;

/** At most this many servers in one MCP client configuration. */
const MCP_CONFIG_MAX_SERVERS = 100;

/** One server of an MCP client configuration: its name there, the server it becomes (when it can), and why not. */
export interface ConfiguredServer {
  /** Its key in the file. */
  key: string;
  /** Its name in the catalog: the key, lowercased, with what a server name may not hold replaced by "-". */
  name: string;
  config?: McpServerConfig;
  problems: FieldError[];
  /** What the import leaves out on purpose (fields Toolshed has no use for) or changes (the name). */
  notes: string[];
}

/** Fields of a client's server entry that Toolshed reads. */
const READ = new Set(["type", "transport", "command", "args", "env", "url", "headers"]);

const isObject = (value: unknown): value is Entry => value !== null && typeof value === "object" && !Array.isArray(value);

/** A key of the file as a server name: 1-32 lowercase letters, digits, '_' or '-', starting with a letter or digit, no "__", no final "_". */
export function serverNameOf(key: string): string {
  const name = key
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "-")
    .replace(/_{2,}/g, "_")
    .replace(/^[-_]+/, "")
    .slice(0, 32)
    .replace(/_+$/, "");
  return name || "server";
}

/** A client's variables (VS Code's ${input:…}, ${env:…}, ${workspaceFolder}; Cursor's ${env:…}) that only the client can fill in. */
const CLIENT_VARIABLE = /\$\{(input|env|workspaceFolder|userHome|config|command)(:[^}]*)?\}/;

function variableProblems(entry: Entry, at: string): FieldError[] {
  const problems: FieldError[] = [];
  const visit = (value: unknown, path: string) => {
    if (typeof value === "string") {
      const found = CLIENT_VARIABLE.exec(value);
      if (found) problems.push({ field: path, message: `${found[0]} is filled in by the MCP client, not by Toolshed: put the value itself in the file.` });
    } else if (Array.isArray(value) || isObject(value)) {
      for (const [key, item] of Object.entries(value)) visit(item, `${path}.${key}`);
    }
  };
  visit(entry, at);
  return problems;
}

/** The transport a client's entry names (VS Code and Claude Code say `type`; some clients `transport`), or the one its fields imply. */
function transportOf(entry: Entry): string {
  const named = entry.type ?? entry.transport;
  if (typeof named === "string") return named.toLowerCase();
  return entry.command !== undefined ? "stdio" : "http";
}

/** The server config a client's entry describes, in the shape POST …/mcp-servers takes. */
function candidateOf(name: string, entry: Entry, transport: string): Entry {
  if (transport === "stdio") {
    return {
      name,
      transport: "stdio",
      command: entry.command,
      ...(entry.args === undefined ? {} : { args: entry.args }),
      ...(entry.env === undefined ? {} : { env: entry.env }),
    };
  }
  return { name, transport: "http", url: entry.url, ...(entry.headers === undefined ? {} : { headers: entry.headers }) };
}

/** One entry of the file as a server of the catalog, checked as POST …/mcp-servers checks its body. */
function configuredServer(key: string, raw: unknown, at: string): ConfiguredServer {
  const name = serverNameOf(key);
  const field = `${at}.${key}`;
  const server: ConfiguredServer = {
    key,
    name,
    problems: [],
    notes: name === key ? [] : [`Named "${name}" here: a server name is lowercase letters, digits, '_' and '-'.`],
  };
  if (!isObject(raw))
    return { ...server, problems: [{ field, message: 'A server is a JSON object, e.g. {"command": "npx", "args": ["-y", "weather-mcp"]}.' }] };
  const transport = transportOf(raw);
  if (!["stdio", "http", "streamable-http", "streamablehttp"].includes(transport)) {
    const why =
      transport === "sse"
        ? 'the older SSE transport is not supported: give the server\'s Streamable HTTP URL with type "http"'
        : `its type "${transport}" is not stdio or http`;
    return { ...server, problems: [{ field: `${field}.type`, message: `This server cannot be added: ${why}.` }] };
  }
  const ignored = Object.keys(raw).filter((fieldName) => !READ.has(fieldName));
  if (ignored.length > 0) server.notes.push(`Not kept: ${ignored.map((fieldName) => `"${fieldName}"`).join(", ")} (Toolshed has no such setting).`);
  server.problems.push(...variableProblems(raw, field));
  const parsed = McpServerConfigSchema.safeParse(candidateOf(name, raw, transport === "stdio" ? "stdio" : "http"));
  if (!parsed.success) {
    server.problems.push(
      ...parsed.error.issues.map((issue) => ({
        field: [field, ...issue.path.filter((part) => part !== "transport").map(String)].join("."),
        message: issue.message,
      })),
    );
  }
  return server.problems.length === 0 && parsed.success ? { ...server, config: parsed.data } : server;
}

/**
 * The servers of an MCP client configuration (`servers` is its `mcpServers`, `servers` or
 * `mcp.servers`, at `at`): each becomes a stdio server (`command`, `args`, `env`) or an HTTP one
 * (`url`, `headers`), checked like the body of POST …/mcp-servers, with every problem by the file's
 * field. Two keys that would get one name are a problem of the second.
 */
export function serversOfClientConfig(servers: Entry, at: string): ConfiguredServer[] {
  const keys = Object.keys(servers);
  if (keys.length > MCP_CONFIG_MAX_SERVERS) {
    return [
      {
        key: at,
        name: "",
        problems: [{ field: at, message: `An import adds at most ${MCP_CONFIG_MAX_SERVERS} servers; this file has ${keys.length}.` }],
        notes: [],
      },
    ];
  }
  const named = new Map<string, string>();
  return keys.map((key) => {
    const server = configuredServer(key, servers[key], at);
    const first = named.get(server.name);
    if (first !== undefined) {
      server.problems.push({ field: `${at}.${key}`, message: `"${key}" and "${first}" would both be named "${server.name}" here: rename one.` });
      delete server.config;
    } else named.set(server.name, key);
    return server;
  });
}

/** A server of an MCP client configuration as its import's preview shows it: no value of its env or headers. */
export interface PreviewedServer {
  key: string;
  name: string;
  transport?: "stdio" | "http";
  /** The command line of a stdio server; an HTTP server's URL without its query (which may hold a key). */
  target?: string;
  /** The names of its environment variables or HTTP headers: their values are stored encrypted, never shown. */
  secrets: string[];
  problems: FieldError[];
  notes: string[];
}

/** What importing an MCP client configuration would add: every server, or why it cannot be. */
export interface ServerImportPreview {
  format: ImportFormat;
  servers: PreviewedServer[];
}

/** What importing one did: each server added with what its first sync found (or its error). */
export interface ServerImportResult {
  format: ImportFormat;
  servers: { name: string; sync: { added: string[]; updated: string[]; unregistered: string[]; conflicts: FieldError[]; error?: string } }[];
}
