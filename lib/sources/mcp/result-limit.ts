import "server-only";
import type { ContentBlock } from "@modelcontextprotocol/sdk/types.js";
import { ToolshedError } from "../../errors";
import type { McpToolResult } from "./client";

/**
 * How many characters of a live MCP tool result go on (into the playground's stream, the stored
 * conversation and the model's next step). A server may answer with megabytes; what is over the
 * limit is cut, with a note that says so.
 */
const MCP_RESULT_MAX_CHARS_ENV = "TOOLSHED_MCP_RESULT_MAX_CHARS";
export const DEFAULT_MCP_RESULT_MAX_CHARS = 100_000;

export function mcpResultMaxChars(env: Record<string, string | undefined> = process.env): number {
  const raw = env[MCP_RESULT_MAX_CHARS_ENV]?.trim();
  if (!raw) return DEFAULT_MCP_RESULT_MAX_CHARS;
  const value = Number(raw);
  if (Number.isInteger(value) && value > 0) return value;
  throw new ToolshedError("bad_request", `${MCP_RESULT_MAX_CHARS_ENV}="${raw}" must be a positive whole number of characters.`, MCP_RESULT_MAX_CHARS_ENV);
}

const count = (n: number) => n.toLocaleString("en-US");

/** The note that ends a cut result. */
function truncationNote(total: number, limit: number): string {
  return `… [truncated: ${count(total)} characters, limit ${count(limit)}]`;
}

/** The characters a block carries: its text, its base64 data, or its embedded resource's text or blob. */
function blockSize(block: ContentBlock): number {
  switch (block.type) {
    case "text":
      return block.text.length;
    case "image":
    case "audio":
      return block.data.length;
    case "resource":
      return "text" in block.resource ? block.resource.text.length : block.resource.blob.length;
    default:
      return 0;
  }
}

/** The first `length` characters, without splitting a surrogate pair. */
function head(text: string, length: number): string {
  const end = length > 0 && /[\uD800-\uDBFF]/.test(text[length - 1] ?? "") ? length - 1 : length;
  return text.slice(0, end);
}

/** The part of a block that fits in `budget` characters: text is cut, binary data is left out. */
function cutBlock(block: ContentBlock, budget: number): ContentBlock | undefined {
  if (block.type === "text") return budget > 0 ? { ...block, text: head(block.text, budget) } : undefined;
  if (block.type === "resource" && "text" in block.resource) {
    return budget > 0 ? { ...block, resource: { ...block.resource, text: head(block.resource.text, budget) } } : undefined;
  }
  return undefined;
}

export function mcpResultSize(result: McpToolResult): number {
  const content = result.content.reduce((sum, block) => sum + blockSize(block), 0);
  return content + (result.structuredContent ? JSON.stringify(result.structuredContent).length : 0);
}

/**
 * The result within `limit` characters (text, base64 data and structured content counted): the
 * blocks in order while they fit, the one that does not cut (text) or left out (binary data),
 * the rest and a structured content that no longer fits left out, and a text block with the note
 * at the end. A result within the limit is returned as it is.
 */
export function limitMcpResult(result: McpToolResult, limit: number): McpToolResult {
  const total = mcpResultSize(result);
  if (total <= limit) return result;
  let budget = limit;
  const content: ContentBlock[] = [];
  for (const block of result.content) {
    const size = blockSize(block);
    if (size <= budget) {
      content.push(block);
      budget -= size;
      continue;
    }
    const cut = cutBlock(block, budget);
    if (cut) content.push(cut);
    budget = 0;
  }
  const structured = result.structuredContent && JSON.stringify(result.structuredContent).length <= budget ? result.structuredContent : undefined;
  content.push({ type: "text", text: truncationNote(total, limit) });
  return { content, isError: result.isError, ...(structured ? { structuredContent: structured } : {}) };
}

/** Whether a value has the shape of an MCP tool result (what a live MCP call returns). */
export function isMcpToolResult(value: unknown): value is McpToolResult {
  return typeof value === "object" && value !== null && Array.isArray((value as { content?: unknown }).content);
}
