import "server-only";
import type { ContentBlock } from "@modelcontextprotocol/sdk/types.js";
import { scrubJson } from "../../secrets/scrub";
import type { McpToolResult } from "./client";

type Scrub = (text: string) => string;

const containsSecret = (text: string, scrub: Scrub) => scrub(text) !== text;

/**
 * Whether base64 data carries a secret: in its own characters, or in the bytes it decodes to (a
 * text file, a screenshot of a page that shows the header). Masking inside base64 would break the
 * data, so such a block is withheld whole instead.
 */
const dataContainsSecret = (base64: string, scrub: Scrub) =>
  containsSecret(base64, scrub) || containsSecret(Buffer.from(base64, "base64").toString("utf8"), scrub);

const withheld = (what: string): ContentBlock => ({
  type: "text",
  text: `[${what} withheld: it contained a secret of this MCP server's configuration]`,
});

function scrubBlock(block: ContentBlock, scrub: Scrub): ContentBlock {
  if (block.type === "image" || block.type === "audio") {
    if (dataContainsSecret(block.data, scrub)) return withheld(`${block.type} content`);
    return { ...scrubJson({ ...block, data: "" }, scrub), data: block.data };
  }
  if (block.type === "resource" && "blob" in block.resource) {
    if (dataContainsSecret(block.resource.blob, scrub)) return withheld("embedded resource");
    const scrubbed = scrubJson({ ...block, resource: { ...block.resource, blob: "" } }, scrub);
    return { ...scrubbed, resource: { ...scrubbed.resource, blob: block.resource.blob } };
  }
  return scrubJson(block, scrub);
}

/**
 * A tool's result with every secret `scrub` knows masked wherever the server put it: text, embedded
 * resources (text, URIs), annotations, `_meta`, structured content, and base64 data, which is
 * withheld when it carries one. Applied to every call, error results included, before anything
 * reads it: a server may quote the headers or environment it was given.
 */
export function scrubToolResult(result: McpToolResult, scrub: Scrub): McpToolResult {
  return {
    content: result.content.map((block) => scrubBlock(block, scrub)),
    isError: result.isError,
    ...(result.structuredContent ? { structuredContent: scrubJson(result.structuredContent, scrub) } : {}),
  };
}

const PROSE_FIELDS = new Set(["description", "title"]);

/** Where a server puts whatever it likes: masked whole, keys and values. */
const FREE_FIELD = "_meta";

/**
 * A listed tool with every secret masked in its prose (descriptions and titles, its schemas'
 * included) and anywhere in its `_meta`, where a server may echo what it was sent. Names, property
 * names and enum values are left alone: they are what calls are made with, and a configuration
 * value that is no secret (say, an env `FORMAT=json`) may well be one of them.
 */
export function scrubToolDefinition<T>(definition: T, scrub: Scrub): T {
  if (Array.isArray(definition)) return definition.map((item) => scrubToolDefinition(item, scrub)) as T;
  if (definition === null || typeof definition !== "object") return definition;
  return Object.fromEntries(
    Object.entries(definition).map(([key, value]) => [
      key,
      key === FREE_FIELD ? scrubJson(value, scrub) : PROSE_FIELDS.has(key) && typeof value === "string" ? scrub(value) : scrubToolDefinition(value, scrub),
    ]),
  ) as T;
}
