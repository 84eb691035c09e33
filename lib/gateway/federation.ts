import { createHash } from "node:crypto";
import type { ContentBlock, Prompt, PromptMessage, Resource, ResourceTemplate } from "@modelcontextprotocol/sdk/types.js";
import { registryNamesForServer } from "../sources/mcp/names";
import { canonicalJson } from "../tools/pinning";

/**
 * Resources and prompts of a catalog's MCP servers as the gateway offers them, federated like
 * their tools: each server's items are namespaced so two servers never collide and a request is
 * routed to the server that owns the item.
 *
 * - Prompts are named `<server>__<prompt>`, as tools are (registryNamesForServer).
 * - Resources and templates keep their content but get a gateway URI,
 *   `toolshed://<server>/<original URI, percent-encoded>`: the server is read from it, and the
 *   original comes back exactly (no client normalisation of a path can touch an encoded one). A
 *   template's `{expressions}` stay as they are, so a client still expands them; the value a client
 *   expands into one reaches the server percent-decoded. Their names become `<server>__<name>`,
 *   the name an agent's permission patterns are matched against, like a tool's. The original URI
 *   and name stay in `_meta` (UPSTREAM_META).
 * - What a session sees is filtered: a name the agent's permissions deny is left out (and refused
 *   when asked for, with the words an unknown one gets), and so is a prompt whose definition an
 *   editor has not approved (see promptDigest). "ask" lets an item through: the user picks a
 *   prompt or resource, which is the approval.
 */

const SCHEME = "toolshed://";
/** Where the original URI or name of a federated item is kept, for clients that want to show it. */
const UPSTREAM_META = "toolshed/upstream";

/** What one connected server offers, as it listed it. */
export interface UpstreamOffer {
  server: string;
  resources: Resource[];
  templates: ResourceTemplate[];
  prompts: Prompt[];
}

export function gatewayUri(server: string, uri: string): string {
  return `${SCHEME}${server}/${encodeURIComponent(uri)}`;
}

/** A template's gateway form: the literal parts encoded, the `{…}` expressions kept for the client to expand. */
export function gatewayTemplate(server: string, uriTemplate: string): string {
  const parts = uriTemplate.split(/(\{[^}]*\})/);
  return `${SCHEME}${server}/${parts.map((part, index) => (index % 2 === 1 ? part : encodeURIComponent(part))).join("")}`;
}

/** The server and original URI a gateway URI stands for; undefined for any other URI. */
export function upstreamOf(uri: string): { server: string; uri: string } | undefined {
  if (!uri.startsWith(SCHEME)) return undefined;
  const rest = uri.slice(SCHEME.length);
  const slash = rest.indexOf("/");
  if (slash <= 0) return undefined;
  try {
    return { server: rest.slice(0, slash), uri: decodeURIComponent(rest.slice(slash + 1)) };
  } catch {
    return undefined;
  }
}

/**
 * Whether a URI is one the template expands to: each expression stands for any run of characters
 * (RFC 6570 operators included). Matched as a wildcard pattern with the two-pointer method, in at
 * most (URI length × template length) steps: a regular expression built from a server's template
 * could backtrack for ages on a caller's URI.
 */
export function templateMatches(uriTemplate: string, uri: string): boolean {
  const literals = uriTemplate.split(/\{[^}]*\}/);
  if (literals.length === 1) return uriTemplate === uri;
  const first = literals[0];
  const last = literals[literals.length - 1];
  if (!uri.startsWith(first) || !uri.endsWith(last) || uri.length < first.length + last.length) return false;
  // The literals between the first and the last, each found at its earliest place after the one before.
  let at = first.length;
  const end = uri.length - last.length;
  for (const literal of literals.slice(1, -1)) {
    const found = uri.indexOf(literal, at);
    if (found === -1 || found + literal.length > end) return false;
    at = found + literal.length;
  }
  return true;
}

/** Namespaced names of a server's items, keyed by their original names (which need not be distinct for resources). */
function namesOf(server: string, names: readonly string[]): Map<string, string> {
  const distinct = [...new Set(names)];
  const namespaced = registryNamesForServer(server, distinct);
  return new Map(distinct.map((name, index) => [name, namespaced[index]]));
}

/** The permission key of a URI a server does not list nor match a template of: only a rule for the whole server (`<server>__*`) reaches it. */
const unlistedKey = (server: string) => `${server}__`;

const withUpstream = <T extends { _meta?: Record<string, unknown> }>(item: T, upstream: Record<string, string>): T => ({
  ...item,
  _meta: { ...item._meta, [UPSTREAM_META]: upstream },
});

/** The name a read of `uri` on this server is permitted under: the listed resource's, else the first matching template's, else the server's own key. */
export function resourceKey(offer: UpstreamOffer, uri: string): string {
  const listed = offer.resources.find((resource) => resource.uri === uri);
  const template = listed ? undefined : offer.templates.find((candidate) => templateMatches(candidate.uriTemplate, uri));
  const name = listed?.name ?? template?.name;
  if (name === undefined) return unlistedKey(offer.server);
  return namesOf(offer.server, [...offer.resources.map((resource) => resource.name), ...offer.templates.map((item) => item.name)]).get(name)!;
}

export interface Federated {
  resources: Resource[];
  templates: ResourceTemplate[];
  prompts: Prompt[];
  /** Each listed prompt's server and name there, by its gateway name. */
  promptRoutes: Map<string, { server: string; name: string }>;
}

/**
 * The items of every offer a session may see, in the offers' order: namespaced, those whose
 * names `permits` refuses left out, and prompts whose definition `approved` refuses.
 */
export function federate(
  offers: readonly UpstreamOffer[],
  permits: (name: string) => boolean,
  approved: (server: string, prompt: Prompt) => boolean = () => true,
): Federated {
  const federated: Federated = { resources: [], templates: [], prompts: [], promptRoutes: new Map() };
  for (const offer of offers) {
    const { server } = offer;
    const resourceNames = namesOf(server, [...offer.resources.map((resource) => resource.name), ...offer.templates.map((template) => template.name)]);
    for (const resource of offer.resources) {
      const name = resourceNames.get(resource.name)!;
      if (permits(name)) federated.resources.push(withUpstream({ ...resource, name, uri: gatewayUri(server, resource.uri) }, { server, uri: resource.uri }));
    }
    for (const template of offer.templates) {
      const name = resourceNames.get(template.name)!;
      if (!permits(name)) continue;
      federated.templates.push(
        withUpstream({ ...template, name, uriTemplate: gatewayTemplate(server, template.uriTemplate) }, { server, uriTemplate: template.uriTemplate }),
      );
    }
    const promptNames = namesOf(
      server,
      offer.prompts.map((prompt) => prompt.name),
    );
    for (const prompt of offer.prompts) {
      const name = promptNames.get(prompt.name)!;
      if (!permits(name) || !approved(server, prompt)) continue;
      federated.prompts.push(withUpstream({ ...prompt, name }, { server, name: prompt.name }));
      federated.promptRoutes.set(name, { server, name: prompt.name });
    }
  }
  return federated;
}

/** What of a prompt is pinned: what a model or user reads of it and what it asks for. */
export function promptDigest(prompt: Prompt): string {
  const definition = { title: prompt.title ?? null, description: prompt.description ?? null, arguments: prompt.arguments ?? [] };
  return createHash("sha256").update(canonicalJson(definition)).digest("base64url");
}

/** A content block of an upstream's answer with its resource URI namespaced (resource links, embedded resources); other blocks unchanged. */
export function namespaceContent<T extends ContentBlock>(server: string, block: T): T {
  if (block.type === "resource_link") return { ...block, uri: gatewayUri(server, block.uri) };
  if (block.type === "resource") return { ...block, resource: { ...block.resource, uri: gatewayUri(server, block.resource.uri) } };
  return block;
}

export function namespacePromptMessages(server: string, messages: readonly PromptMessage[]): PromptMessage[] {
  return messages.map((message) => ({ ...message, content: namespaceContent(server, message.content) }));
}

/** What the Sources page shows of a connected server's resources and prompts (each prompt with whether its definition is approved). */
export interface McpOfferSummary {
  resources: { name: string; uri: string; mimeType: string | null }[];
  templates: { name: string; uriTemplate: string; mimeType: string | null }[];
  prompts: { name: string; description: string; arguments: { name: string; required: boolean }[]; digest: string; approved: boolean }[];
}

/** What a resource read's or prompt get's decision records of the request: never the arguments' values, as with tool calls. */
export interface FederationDecisionInput {
  /** The gateway URI asked for, or the prompt's gateway name. */
  item: string;
  /** The server it was routed to; null when the request named none this session may use. */
  server: string | null;
  argumentsBytes?: number;
  argumentsDigest?: string;
  actor: string;
}

/** ok: the server answered; error: it failed; refused: it was not asked (the reason, for the catalog's readers, says why). */
export interface FederationDecisionResult {
  outcome: "ok" | "error" | "refused";
  reason: string | null;
}

/** What an agent would see of one server's offer (the simulator): every item by its gateway name, with whether the agent's permissions deny it. */
export interface OfferPreview {
  resources: { name: string; uri: string; denied: boolean }[];
  templates: { name: string; uriTemplate: string; denied: boolean }[];
  /** `heldBack`: its definition waits for an editor's approval, so no agent sees it. */
  prompts: { name: string; denied: boolean; heldBack: boolean }[];
}

export function previewOffer(offer: UpstreamOffer, permits: (name: string) => boolean, approved: (prompt: Prompt) => boolean): OfferPreview {
  const resourceNames = namesOf(offer.server, [...offer.resources.map((resource) => resource.name), ...offer.templates.map((template) => template.name)]);
  const promptNames = namesOf(
    offer.server,
    offer.prompts.map((prompt) => prompt.name),
  );
  const named = (names: Map<string, string>, original: string) => {
    const name = names.get(original)!;
    return { name, denied: !permits(name) };
  };
  return {
    resources: offer.resources.map((resource) => ({ ...named(resourceNames, resource.name), uri: resource.uri })),
    templates: offer.templates.map((template) => ({ ...named(resourceNames, template.name), uriTemplate: template.uriTemplate })),
    prompts: offer.prompts.map((prompt) => ({ ...named(promptNames, prompt.name), heldBack: !approved(prompt) })),
  };
}
