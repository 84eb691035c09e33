import "server-only";
import { createHash } from "node:crypto";

const TOOL_NAME_MAX = 64;
const HASH_LENGTH = 8;
const INVALID_CHARACTERS = /[^a-zA-Z0-9_-]/g;

/** A short hash of the original MCP name: stable across syncs and servers' listing order. */
function shortHash(mcpName: string): string {
  return createHash("sha256").update(mcpName).digest("hex").slice(0, HASH_LENGTH);
}

function withHash(base: string, mcpName: string, attempt: number): string {
  const suffix = `_${shortHash(attempt === 0 ? mcpName : `${mcpName}\u0000${attempt}`)}`;
  return `${base.slice(0, TOOL_NAME_MAX - suffix.length)}${suffix}`;
}

/**
 * Registry names for one server's tools: `<server>__<tool>`, with every character a provider
 * would reject replaced by '_'. Names that need no change keep it. A name that is too long ends
 * in '_' and a hash of the original MCP name; so does one that collides after replacement,
 * except the first of the colliding names in code-point order. The result depends only on the
 * set of names, not on the order the server lists them in, so a re-sync gives every tool the
 * same name again. Returned in the order of `mcpNames`, which must be distinct.
 */
export function registryNamesForServer(server: string, mcpNames: readonly string[]): string[] {
  const base = (mcpName: string) => `${server}__${mcpName}`.replace(INVALID_CHARACTERS, "_");
  const isVerbatim = (mcpName: string) => {
    const name = base(mcpName);
    return name.length <= TOOL_NAME_MAX && name === `${server}__${mcpName}`;
  };
  // Names that need no change claim theirs first; the rest in code-point order of the original names.
  const order = [...mcpNames].sort((a, b) => Number(isVerbatim(b)) - Number(isVerbatim(a)) || (a < b ? -1 : a > b ? 1 : 0));
  const taken = new Set<string>();
  const assigned = new Map<string, string>();
  for (const mcpName of order) {
    const plain = base(mcpName);
    let name = plain.length <= TOOL_NAME_MAX && !taken.has(plain) ? plain : withHash(plain, mcpName, 0);
    for (let attempt = 1; taken.has(name); attempt++) name = withHash(plain, mcpName, attempt);
    taken.add(name);
    assigned.set(mcpName, name);
  }
  return mcpNames.map((mcpName) => assigned.get(mcpName) as string);
}
