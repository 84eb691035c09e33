import "server-only";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  type GetPromptResult,
  GetPromptResultSchema,
  ListPromptsResultSchema,
  ListResourcesResultSchema,
  ListResourceTemplatesResultSchema,
  type Prompt,
  type ReadResourceResult,
  ReadResourceResultSchema,
  type Resource,
  type ResourceTemplate,
} from "@modelcontextprotocol/sdk/types.js";
import { scrubJson } from "../../secrets/scrub";
import { type RequestOptions, secretScrubber } from "./client";
import type { McpServerConfig } from "./config";

/**
 * A connected server's resources and prompts (what the gateway federates besides tools): listed
 * whole, following cursors, and everything a server answers scrubbed of its secrets before anyone
 * reads it, as its tools and tool results are. A server that did not declare resources or prompts
 * lists none of them.
 */

export interface McpServerOffer {
  resources: Resource[];
  templates: ResourceTemplate[];
  prompts: Prompt[];
  /** Whether the server lets clients subscribe to a resource's updates. */
  subscribe: boolean;
}

const MAX_PAGES = 100;
const MAX_ITEMS = 10_000;

async function listAll<T>(what: string, page: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string }>): Promise<T[]> {
  const items: T[] = [];
  const cursors = new Set<string>();
  let cursor: string | undefined;
  for (let count = 1; ; count++) {
    const answer = await page(cursor);
    items.push(...answer.items);
    if (answer.nextCursor === undefined) return items;
    if (cursors.has(answer.nextCursor) || count >= MAX_PAGES || items.length >= MAX_ITEMS) {
      throw new Error(`${what} goes on beyond ${MAX_PAGES} pages or ${MAX_ITEMS} items, or repeats a cursor`);
    }
    cursors.add(answer.nextCursor);
    cursor = answer.nextCursor;
  }
}

const paramsOf = (cursor: string | undefined) => (cursor === undefined ? {} : { cursor });

export async function listOfferOn(client: Client, config: McpServerConfig, requestOptions: RequestOptions): Promise<McpServerOffer> {
  const capabilities = client.getServerCapabilities();
  const { scrub } = secretScrubber(config);
  const [resources, templates, prompts] = await Promise.all([
    capabilities?.resources
      ? listAll("resources/list", async (cursor) => {
          const answer = await client.request({ method: "resources/list", params: paramsOf(cursor) }, ListResourcesResultSchema, requestOptions);
          return { items: answer.resources, nextCursor: answer.nextCursor };
        })
      : [],
    capabilities?.resources
      ? listAll("resources/templates/list", async (cursor) => {
          const answer = await client.request(
            { method: "resources/templates/list", params: paramsOf(cursor) },
            ListResourceTemplatesResultSchema,
            requestOptions,
          );
          return { items: answer.resourceTemplates, nextCursor: answer.nextCursor };
        })
      : [],
    capabilities?.prompts
      ? listAll("prompts/list", async (cursor) => {
          const answer = await client.request({ method: "prompts/list", params: paramsOf(cursor) }, ListPromptsResultSchema, requestOptions);
          return { items: answer.prompts, nextCursor: answer.nextCursor };
        })
      : [],
  ]);
  return scrubJson({ resources, templates, prompts, subscribe: capabilities?.resources?.subscribe === true }, scrub);
}

export async function readResourceOn(client: Client, config: McpServerConfig, uri: string, requestOptions: RequestOptions): Promise<ReadResourceResult> {
  const answer = await client.request({ method: "resources/read", params: { uri } }, ReadResourceResultSchema, requestOptions);
  return scrubJson(answer, secretScrubber(config).scrub);
}

export async function getPromptOn(
  client: Client,
  config: McpServerConfig,
  name: string,
  args: Record<string, string>,
  requestOptions: RequestOptions,
): Promise<GetPromptResult> {
  const answer = await client.request({ method: "prompts/get", params: { name, arguments: args } }, GetPromptResultSchema, requestOptions);
  return scrubJson(answer, secretScrubber(config).scrub);
}

export async function subscribeOn(client: Client, uri: string, subscribed: boolean, requestOptions: RequestOptions): Promise<void> {
  if (subscribed) await client.subscribeResource({ uri }, requestOptions);
  else await client.unsubscribeResource({ uri }, requestOptions);
}
