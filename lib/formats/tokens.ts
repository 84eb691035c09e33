import { createHash } from "node:crypto";
import { countTokens as countO200kTokens } from "gpt-tokenizer/encoding/o200k_base";
import { Lru } from "../tools/lru";
import type { InputSchema, ToolDefinition } from "../tools/types";
import { toProviderTool, type ProviderFormat } from "./provider-format";

export interface TokenCount {
  /** The sum of the per-tool counts, nothing added: providers wrap tool lists in framing of
   * their own that is not public, so only what the catalog controls is counted. */
  total: number;
  perTool: Record<string, number>;
}

// Tokenising is the expensive part of a tool list (≈ 26 µs per definition, a quarter of a second
// for 10,000 tools), and the definitions barely change between requests. So each definition is
// tokenised once and its count remembered, two ways:
//
// - by identity: input schemas are shared, unchanged, between requests as long as the catalog
//   state that holds them is cached; under each schema object, by name and then description.
//   Entries live as long as the schema object does (a WeakMap), so nothing outlives its catalog
//   revision;
// - by content, when the schema object is new (a new catalog revision, a plugin hook that builds a
//   schema): a hash of the formatted definition's JSON, in a bounded LRU.
//
// Both give exactly the count of tokenising the JSON again, so totals are unchanged.

/** Under one schema object: the first (name, description) seen, and any others by name, then description. */
interface SchemaCounts {
  name: string;
  description: string;
  count: number;
  others?: Map<string, Map<string, number>>;
  otherCount?: number;
}

/** Past this many other (name, description) pairs under one schema object, they are dropped. */
const MAX_PAIRS_PER_SCHEMA = 100_000;
const TOKEN_CONTENT_CACHE_ENTRIES = 200_000;

const byIdentity: Record<ProviderFormat, WeakMap<InputSchema, SchemaCounts>> = {
  "ai-sdk": new WeakMap(),
  openai: new WeakMap(),
  anthropic: new WeakMap(),
};
const byContent = new Lru<string, number>({ maxEntries: TOKEN_CONTENT_CACHE_ENTRIES });

/** For tests: how many definitions are remembered by content. */
export function cachedDefinitionCounts(): number {
  return byContent.size;
}

function knownCount(entry: SchemaCounts | undefined, tool: ToolDefinition): number | undefined {
  if (entry === undefined) return undefined;
  if (entry.name === tool.name && entry.description === tool.description) return entry.count;
  return entry.others?.get(tool.name)?.get(tool.description);
}

function remember(schemas: WeakMap<InputSchema, SchemaCounts>, tool: ToolDefinition, count: number): void {
  // Only objects can key a WeakMap; a schema is always one, but plugins are plain JavaScript.
  if (typeof tool.inputSchema !== "object" || tool.inputSchema === null) return;
  const entry = schemas.get(tool.inputSchema);
  if (entry === undefined) {
    schemas.set(tool.inputSchema, { name: tool.name, description: tool.description, count });
    return;
  }
  if (entry.others === undefined || (entry.otherCount ?? 0) >= MAX_PAIRS_PER_SCHEMA) {
    entry.others = new Map();
    entry.otherCount = 0;
  }
  let descriptions = entry.others.get(tool.name);
  if (descriptions === undefined) {
    descriptions = new Map();
    entry.others.set(tool.name, descriptions);
  }
  descriptions.set(tool.description, count);
  entry.otherCount! += 1;
}

// A frozen definition (a final tool of a cached catalog state's list) always counts the same: its
// count is kept on it, one lookup rather than two, as every list of a revision counts every tool.
const byDefinition: Record<ProviderFormat, WeakMap<ToolDefinition, number>> = {
  "ai-sdk": new WeakMap(),
  openai: new WeakMap(),
  anthropic: new WeakMap(),
};

/** Tokens of one definition in one format: its JSON as sent, encoded with o200k_base. */
export function definitionTokens(tool: ToolDefinition, format: ProviderFormat): number {
  if (!Object.isFrozen(tool)) return schemaOrContentTokens(tool, format);
  let count = byDefinition[format].get(tool);
  if (count === undefined) {
    count = schemaOrContentTokens(tool, format);
    byDefinition[format].set(tool, count);
  }
  return count;
}

function schemaOrContentTokens(tool: ToolDefinition, format: ProviderFormat): number {
  const schemas = byIdentity[format];
  const known = knownCount(schemas.get(tool.inputSchema), tool);
  if (known !== undefined) return known;

  const json = JSON.stringify(toProviderTool(tool, format));
  const digest = createHash("sha256").update(json).digest("base64");
  let count = byContent.get(digest);
  if (count === undefined) {
    count = countO200kTokens(json);
    byContent.set(digest, count);
  }
  remember(schemas, tool, count);
  return count;
}

/**
 * Tokens each tool costs in the given format: its definition serialised as JSON, the way the
 * request carries it, encoded with o200k_base (the GPT-4o/GPT-5 tokenizer). Other providers'
 * tokenizers differ, so read the figures as a comparison between tool lists, not a bill.
 */
export function countTokens(tools: readonly ToolDefinition[], format: ProviderFormat): TokenCount {
  const counts = tools.map((tool) => definitionTokens(tool, format));
  let total = 0;
  for (const count of counts) total += count;
  return { total, perTool: perToolCounts(tools, counts) };
}

/** `TokenCount.perTool` of tools whose counts are known: the counts of tools of the same name add up. */
export function perToolCounts(tools: readonly { name: string }[], counts: readonly number[]): Record<string, number> {
  const perTool: Record<string, number> = {};
  tools.forEach(({ name }, index) => {
    // Own properties throughout: a tool may legitimately be named "__proto__" (or "constructor").
    const count = (Object.hasOwn(perTool, name) ? perTool[name] : 0) + counts[index];
    if (name === "__proto__") Object.defineProperty(perTool, name, { value: count, enumerable: true, writable: true, configurable: true });
    else perTool[name] = count;
  });
  return perTool;
}

/** The total of `countTokens`, without building the per-tool record. */
export function totalTokens(tools: readonly ToolDefinition[], format: ProviderFormat): number {
  let total = 0;
  for (const tool of tools) total += definitionTokens(tool, format);
  return total;
}
