import { countTokens as countO200kTokens } from "gpt-tokenizer/encoding/o200k_base";
import type { ToolDefinition } from "../tools/types";
import { toProviderTool, type ProviderFormat } from "./provider-format";

export interface TokenCount {
  /** The sum of the per-tool counts, nothing added: providers wrap tool lists in framing of
   * their own that is not public, so only what the catalog controls is counted. */
  total: number;
  perTool: Record<string, number>;
}

/**
 * Tokens each tool costs in the given format: its definition serialised as JSON, the way the
 * request carries it, encoded with o200k_base (the GPT-4o/GPT-5 tokenizer). Other providers'
 * tokenizers differ, so read the figures as a comparison between tool lists, not a bill.
 */
export function countTokens(tools: ToolDefinition[], format: ProviderFormat): TokenCount {
  // A Map, then fromEntries: a tool may legitimately be named "__proto__".
  const perTool = new Map<string, number>();
  let total = 0;
  for (const tool of tools) {
    const count = countO200kTokens(JSON.stringify(toProviderTool(tool, format)));
    perTool.set(tool.name, (perTool.get(tool.name) ?? 0) + count);
    total += count;
  }
  return { total, perTool: Object.fromEntries(perTool) };
}
