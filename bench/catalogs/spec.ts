/**
 * Compact, hand-written service specs and their expansion into tools with JSON Schemas, the way
 * an MCP server exposes them. Used by bench/catalogs/build.ts to write the labelled sets in
 * bench/data/ (see its README): the tools and requests are our own writing.
 */

/** How a service's tool names are spelled in the combined catalog. */
type NamingStyle = "snake" | "camel" | "double";

export interface ServiceSpec {
  /** Key used by the requests: `${key}:${tool}`. */
  key: string;
  /** Name prefix in the catalog (the MCP server's name). */
  prefix: string;
  style: NamingStyle;
  /** Shared parameters: `name` → `shape|description`, shape as in a tool line (`i`, `s[]`, `=a/b`). */
  params?: Record<string, string>;
  /**
   * One tool per line: `snake_name: Description. | param param? param:i param=a/b/c`.
   * `?` marks an optional parameter; `:s|i|n|b|s[]|o` its type (string by default); `=a/b` an enum.
   */
  tools: string[];
}

export interface ExpandedTool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** Parameters that recur in every API, so the specs need not describe them again. */
const COMMON_PARAMS: Record<string, string> = {
  limit: "i|Maximum number of results to return.",
  cursor: "s|Pagination cursor returned by a previous call.",
  page: "i|Page number, starting at 1.",
  per_page: "i|Results per page.",
  query: "s|Free-text search string.",
  id: "s|Identifier of the object.",
  name: "s|Display name.",
  description: "s|Longer free-text description.",
  title: "s|Title.",
  body: "s|Body text, Markdown allowed.",
  email: "s|Email address.",
  tags: "s[]|Tags to attach.",
  labels: "s[]|Label names.",
  since: "s|Only items changed after this ISO 8601 timestamp.",
  until: "s|Only items changed before this ISO 8601 timestamp.",
  start_time: "s|Start, ISO 8601 date-time.",
  end_time: "s|End, ISO 8601 date-time.",
  region: "s|Cloud region, for example eu-west-1.",
  namespace: "s|Namespace; the default namespace when omitted.",
  sort: "=created/updated/name|Field to sort by.",
  order: "=asc/desc|Sort direction.",
  dry_run: "b|Validate only, change nothing.",
  force: "b|Skip confirmation checks.",
  url: "s|Absolute URL.",
  path: "s|Path of the file or folder.",
  content: "s|Content to write.",
  message: "s|Message text.",
  currency: "s|ISO 4217 currency code, e.g. USD.",
  amount: "i|Amount in the smallest currency unit (cents).",
  customer_id: "s|Customer identifier.",
  user_id: "s|User identifier.",
  project_id: "s|Project identifier.",
  status: "s|Status to filter by or set.",
  metadata: "o|Arbitrary key/value pairs stored with the object.",
};

function humanise(name: string): string {
  const words = name
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .toLowerCase();
  return `${words.charAt(0).toUpperCase()}${words.slice(1)}.`;
}

function schemaOfShape(shape: string): Record<string, unknown> {
  if (shape.startsWith("=")) return { type: "string", enum: shape.slice(1).split("/") };
  switch (shape) {
    case "":
    case "s":
      return { type: "string" };
    case "i":
      return { type: "integer" };
    case "n":
      return { type: "number" };
    case "b":
      return { type: "boolean" };
    case "s[]":
      return { type: "array", items: { type: "string" } };
    case "i[]":
      return { type: "array", items: { type: "integer" } };
    case "n[]":
      return { type: "array", items: { type: "number" } };
    case "o":
      return { type: "object", additionalProperties: true };
    default:
      throw new Error(`Unknown parameter shape "${shape}"`);
  }
}

/** `shape|description` from a params dictionary. */
function splitEntry(entry: string): { shape: string; description: string } {
  const bar = entry.indexOf("|");
  return bar < 0 ? { shape: entry, description: "" } : { shape: entry.slice(0, bar), description: entry.slice(bar + 1) };
}

function parameterSchema(token: string, shared: Record<string, string>): { name: string; required: boolean; schema: Record<string, unknown> } {
  const match = /^([A-Za-z][A-Za-z0-9_]*)(\?)?(?::([a-z[\]]+))?(?:=(.+))?$/.exec(token);
  if (!match) throw new Error(`Bad parameter "${token}"`);
  const [, name, optional, type, enumValues] = match;
  const known = shared[name] ?? COMMON_PARAMS[name];
  const entry = known ? splitEntry(known) : { shape: "", description: "" };
  const shape = enumValues ? `=${enumValues}` : (type ?? entry.shape);
  return {
    name,
    required: !optional,
    schema: { ...schemaOfShape(shape), description: entry.description || humanise(name) },
  };
}

function toolName(spec: Pick<ServiceSpec, "prefix" | "style">, snake: string): string {
  switch (spec.style) {
    case "snake":
      return `${spec.prefix}_${snake}`;
    case "double":
      return `${spec.prefix}__${snake}`;
    case "camel":
      return `${spec.prefix}_${snake.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase())}`;
  }
}

/** Every tool of a service, keyed `${service}:${snake_name}` for the requests. */
export function expandService(spec: ServiceSpec): Map<string, ExpandedTool> {
  const tools = new Map<string, ExpandedTool>();
  for (const line of spec.tools) {
    const colon = line.indexOf(":");
    const bar = line.lastIndexOf("|");
    if (colon < 0 || bar < colon) throw new Error(`Bad tool line in ${spec.key}: ${line}`);
    const snake = line.slice(0, colon).trim();
    const description = line.slice(colon + 1, bar).trim();
    const tokens = line
      .slice(bar + 1)
      .trim()
      .split(/\s+/)
      .filter(Boolean);
    const properties: Record<string, unknown> = {};
    const required: string[] = [];
    for (const token of tokens) {
      const parameter = parameterSchema(token, spec.params ?? {});
      properties[parameter.name] = parameter.schema;
      if (parameter.required) required.push(parameter.name);
    }
    const key = `${spec.key}:${snake}`;
    if (tools.has(key)) throw new Error(`Duplicate tool ${key}`);
    tools.set(key, {
      name: toolName(spec, snake),
      description,
      parameters: { type: "object", properties, ...(required.length > 0 ? { required } : {}) },
    });
  }
  return tools;
}
