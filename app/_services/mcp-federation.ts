import "server-only";
import type { GetPromptResult, Prompt, ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import { type Db, getDb } from "@/db/client";
import { getMcpServerConfig, listMcpServerConfigs } from "@/db/queries/mcp-servers";
import { isPerUser } from "@/lib/sources/mcp/config";
import { approvePromptDefinition, keepFirstPromptApprovals, type PromptApprovals, readPromptApprovals } from "@/db/queries/prompt-approvals";
import type { ToolRecord } from "@/db/queries/tools";
import {
  type Federated,
  federate,
  type McpOfferSummary,
  type OfferPreview,
  previewOffer,
  gatewayUri,
  namespacePromptMessages,
  promptDigest,
  resourceKey,
  type UpstreamOffer,
  upstreamOf,
} from "@/lib/gateway/federation";
import { log } from "@/lib/observability/log";
import { type Agent, compilePermissions } from "@/lib/rules/agents";
import { getPromptOn, listOfferOn, type McpOfferChange, type McpServerOffer, McpSourceError, readResourceOn, subscribeOn } from "@/lib/sources/mcp";
import type { GatewayTurn } from "./mcp-gateway";
import { readTurnView, type TurnRequest } from "./selection";
import { isMcpServerConnected, isMcpServerReachable, onMcpOfferChanged, requestMcpServer } from "./sources";

/**
 * The resources and prompts of a catalog's MCP servers, federated for the gateway's sessions
 * (the pure rules: lib/gateway/federation.ts). Each server's offer is listed on its live
 * connection and kept per connection until the server says its resources or prompts changed
 * (or OFFER_TTL_MS passes, for a server restarted without saying so); listeners hear each change,
 * and each update of a subscribed resource, so the gateway tells its sessions.
 *
 * A server contributes to a session only while it is in the catalog, reachable from this
 * instance, and not disabled: a server whose tools are all disabled counts as switched off (there
 * is no switch of its own). Prompt definitions are pinned as tool definitions are: the prompts a
 * server lists the first time are approved by that listing; one added or changed later is held
 * back (not listed, refused) until an editor approves its digest (db/queries/prompt-approvals.ts).
 */

const OFFER_TTL_MS = 5 * 60_000;

type OfferChangeListener = (catalogId: string, server: string, change: McpOfferChange) => void;

interface FederationState {
  offers: Map<string, { at: number; offer: Promise<McpServerOffer> }>;
  listener?: OfferChangeListener;
}

const shared = globalThis as unknown as { toolshedFederation?: FederationState };
shared.toolshedFederation ??= { offers: new Map() };
const state = shared.toolshedFederation;

const keyOf = (catalogId: string, server: string) => `${catalogId}/${server}`;

// A server gone (lost, restarted, removed) is announced as a change of both lists: its offer is listed again when asked for.
onMcpOfferChanged((catalogId, server, change) => {
  if (change.kind !== "updated") state.offers.delete(keyOf(catalogId, server));
  state.listener?.(catalogId, server, change);
});

/** Sets who hears the changes of every server's offer (the gateway): one listener, replaced when its module is loaded again. */
export function onFederatedChange(listener: OfferChangeListener): void {
  state.listener = listener;
}

/** The server's offer, listed on its connection once and kept until it changes. */
function offerOf(db: Db, catalogId: string, server: string): Promise<McpServerOffer> {
  const key = keyOf(catalogId, server);
  const cached = state.offers.get(key);
  if (cached && Date.now() - cached.at < OFFER_TTL_MS) return cached.offer;
  const offer = requestMcpServer(db, catalogId, server, "list", "list its resources and prompts", undefined, listOfferOn);
  const entry = { at: Date.now(), offer };
  state.offers.set(key, entry);
  offer.catch(() => {
    if (state.offers.get(key) === entry) state.offers.delete(key);
  });
  return offer;
}

/** The prompt digests approved for the server; none kept yet means this is its first listing, which approves what it lists. */
async function approvalsOf(db: Db, catalogId: string, server: string, offer: McpServerOffer): Promise<PromptApprovals> {
  const kept = await readPromptApprovals(db, catalogId, server);
  if (kept !== undefined) return kept;
  const first = Object.fromEntries(offer.prompts.map((prompt) => [prompt.name, promptDigest(prompt)]));
  await keepFirstPromptApprovals(db, catalogId, server, first);
  return first;
}

/** The servers that contribute to this catalog's sessions now: in it, reachable here, not switched off by disabling all their tools. */
function contributingServers(servers: readonly string[], catalogId: string, tools: readonly ToolRecord[]): string[] {
  return servers.filter((server) => {
    if (!isMcpServerReachable(catalogId, server)) return false;
    const own = tools.filter((tool) => tool.source === "mcp" && tool.sourceRef === server);
    return own.length === 0 || own.some((tool) => tool.enabled);
  });
}

/** Whether the agent's permissions let a name through: "ask" does (the user picking a prompt or resource is the approval). Its turn view checked that it exists. */
function agentPermits(agents: readonly Agent[], name: string): (item: string) => boolean {
  const agent = agents.find((candidate) => candidate.name === name)!;
  const evaluate = compilePermissions(agent.permissions);
  return (item) => evaluate(item).action !== "deny";
}

interface SessionFederation extends Federated {
  offers: Map<string, UpstreamOffer & { subscribe: boolean }>;
  permits: (name: string) => boolean;
  /** The catalog's revision this was read at, which a decision records. */
  revision: number;
  /** Why a prompt this session does not see is refused, for the decision log. */
  promptRefusal: (name: string) => string;
}

/** What a session of this turn may see of the catalog's servers' resources and prompts now; a server that fails to list is left out. */
export async function federatedFor(catalogId: string, turn: GatewayTurn): Promise<SessionFederation> {
  const db = getDb();
  const { state: catalog } = await readTurnView(db, catalogId, turn);
  const permits = agentPermits(catalog.agents, turn.agent);
  // A per-person server's resources and prompts would be one person's, served to every session: they are left out.
  const names = (await listMcpServerConfigs(db, catalogId)).filter((config) => !isPerUser(config)).map((config) => config.name);
  const servers = contributingServers(names, catalogId, catalog.tools as ToolRecord[]);
  const offers = new Map<string, UpstreamOffer & { subscribe: boolean }>();
  const approvals = new Map<string, PromptApprovals>();
  await Promise.all(
    servers.map(async (server) => {
      try {
        const offer = await offerOf(db, catalogId, server);
        approvals.set(server, await approvalsOf(db, catalogId, server, offer));
        offers.set(server, { server, ...offer });
      } catch (error) {
        log.warn({ err: error }, `MCP ${catalogId}/${server}: its resources and prompts could not be listed:`);
      }
    }),
  );
  const ordered = servers.flatMap((server) => offers.get(server) ?? []);
  const approved = (server: string, prompt: Prompt) => approvals.get(server)?.[prompt.name] === promptDigest(prompt);
  const promptRefusal = (name: string) => {
    if (!federate(ordered, () => true).promptRoutes.has(name)) return "no server of the catalog that this session may use offers this prompt now";
    if (!permits(name)) return `denied by the permissions of agent "${turn.agent}"`;
    return "held back: an editor has not approved its current definition (Sources page)";
  };
  return { ...federate(ordered, permits, approved), offers, permits, revision: catalog.revision, promptRefusal };
}

/**
 * Unknown, denied and held-back items are refused with the same words (`message`): a refusal
 * tells the caller nothing about what exists. `reason` says which, for the decision log.
 */
export class FederatedItemNotFound extends Error {
  constructor(
    message: string,
    readonly reason: string,
  ) {
    super(message);
  }
}

/** The upstream's own words about a failure reach only team admins (as with tool calls); everyone else learns that it failed. */
function upstreamFailure(error: unknown, server: string, upstreamDetails: boolean): Error {
  if (upstreamDetails || !(error instanceof McpSourceError)) return error instanceof Error ? error : new Error(String(error));
  return new McpSourceError(error.failure, server, `The MCP server "${server}" failed (${error.failure}); team admins see the details on the Sources page.`);
}

/** The server and original URI of a gateway resource URI this session may read, and that server's offer. */
export async function readableResource(catalogId: string, turn: GatewayTurn, uri: string) {
  const refused = (reason: string) => new FederatedItemNotFound(`Resource not found: ${uri}`, reason);
  const target = upstreamOf(uri);
  if (!target) throw refused("not a gateway resource URI (toolshed://<server>/…)");
  const federation = await federatedFor(catalogId, turn);
  const offer = federation.offers.get(target.server);
  if (!offer) throw refused(`"${target.server}" is no server of the catalog that this session may use now`);
  const key = resourceKey(offer, target.uri);
  if (!federation.permits(key)) throw refused(`denied by the permissions of agent "${turn.agent}" (${key})`);
  return { target, offer, revision: federation.revision };
}

/** Reads a resource on its server (readableResource says which), the URIs of what it answers namespaced as the listing's. */
export async function readUpstreamResource(
  catalogId: string,
  target: { server: string; uri: string },
  options: { signal?: AbortSignal; upstreamDetails: boolean },
): Promise<ReadResourceResult> {
  try {
    const answer = await requestMcpServer(getDb(), catalogId, target.server, "call", `read ${target.uri}`, options.signal, (client, config, requestOptions) =>
      readResourceOn(client, config, target.uri, requestOptions),
    );
    return { ...answer, contents: answer.contents.map((content) => ({ ...content, uri: gatewayUri(target.server, content.uri) })) };
  } catch (error) {
    throw upstreamFailure(error, target.server, options.upstreamDetails);
  }
}

/** The server and name there of a prompt this session may get. */
export async function promptRoute(catalogId: string, turn: GatewayTurn, name: string) {
  const federation = await federatedFor(catalogId, turn);
  const route = federation.promptRoutes.get(name);
  if (!route) throw new FederatedItemNotFound(`Prompt not found: ${name}`, federation.promptRefusal(name));
  return { route, revision: federation.revision };
}

/** Gets a prompt from its server (promptRoute says which) with the client's arguments, resources in its messages namespaced. */
export async function getUpstreamPrompt(
  catalogId: string,
  route: { server: string; name: string },
  args: Record<string, string>,
  options: { signal?: AbortSignal; upstreamDetails: boolean },
): Promise<GetPromptResult> {
  try {
    const answer = await requestMcpServer(
      getDb(),
      catalogId,
      route.server,
      "call",
      `get the prompt ${route.name}`,
      options.signal,
      (client, config, requestOptions) => getPromptOn(client, config, route.name, args, requestOptions),
    );
    return { ...answer, messages: namespacePromptMessages(route.server, answer.messages) };
  } catch (error) {
    throw upstreamFailure(error, route.server, options.upstreamDetails);
  }
}

/** Subscribes to (or unsubscribes from) a resource on its server: the gateway asks once per resource, however many sessions are subscribed. */
export async function subscribeUpstream(catalogId: string, server: string, uri: string, subscribed: boolean): Promise<void> {
  const label = `${subscribed ? "subscribe to" : "unsubscribe from"} ${uri}`;
  await requestMcpServer(getDb(), catalogId, server, "list", label, undefined, (client, _config, requestOptions) =>
    subscribeOn(client, uri, subscribed, requestOptions),
  );
}

/** A server's resources and prompts for the Sources page, with each prompt's approval; undefined while this instance has no connection to it. */
export async function serverOfferView(catalogId: string, server: string): Promise<McpOfferSummary | undefined> {
  if (!isMcpServerConnected(catalogId, server)) return undefined;
  const db = getDb();
  try {
    const offer = await offerOf(db, catalogId, server);
    const approvals = await approvalsOf(db, catalogId, server, offer);
    return {
      resources: offer.resources.map(({ name, uri, mimeType }) => ({ name, uri, mimeType: mimeType ?? null })),
      templates: offer.templates.map(({ name, uriTemplate, mimeType }) => ({ name, uriTemplate, mimeType: mimeType ?? null })),
      prompts: offer.prompts.map((prompt) => {
        const digest = promptDigest(prompt);
        return {
          name: prompt.name,
          description: prompt.description ?? "",
          arguments: (prompt.arguments ?? []).map((argument) => ({ name: argument.name, required: argument.required === true })),
          digest,
          approved: approvals[prompt.name] === digest,
        };
      }),
    };
  } catch {
    return undefined;
  }
}

/** The Sources page's resources and prompts of each server, by name: null for one not connected on this instance. */
export async function serverOffers(catalogId: string, servers: readonly string[]): Promise<Record<string, McpOfferSummary | null>> {
  const offers = await Promise.all(servers.map(async (server) => [server, (await serverOfferView(catalogId, server)) ?? null] as const));
  return Object.fromEntries(offers);
}

/** An editor approves a prompt's definition as its digest names it (they saw that one), audited; its sessions are told the prompt list changed. */
export async function approvePrompt(catalogId: string, server: string, prompt: string, digest: string, actor: string): Promise<void> {
  const db = getDb();
  // Only a server of this catalog: a name that is not one is refused (not found), nothing written for it.
  await getMcpServerConfig(db, catalogId, server);
  // Its revision tells the gateway's sessions, on every instance, that their prompt lists changed (mcp-gateway-sessions.ts).
  await approvePromptDefinition(db, catalogId, server, prompt, digest, actor);
}

/** A server as the simulator shows it to an agent: what it offers them from its live connection, or why nothing. */
export type ServerPreview = { server: string } & ({ status: "live"; offer: OfferPreview } | { status: "not connected" | "switched off" | "failed to list" });

/**
 * What this model and agent would be offered of each server's resources and prompts (the
 * simulator), from the connections this instance holds now: a server without one is not
 * connected to here (nothing is started for a preview).
 */
export async function federationPreview(catalogId: string, turn: TurnRequest): Promise<ServerPreview[]> {
  const db = getDb();
  const { state: catalog } = await readTurnView(db, catalogId, turn);
  const permits = agentPermits(catalog.agents, turn.agent);
  const names = (await listMcpServerConfigs(db, catalogId)).map((config) => config.name);
  const contributing = new Set(contributingServers(names, catalogId, catalog.tools as ToolRecord[]));
  return Promise.all(
    names.map(async (server): Promise<ServerPreview> => {
      if (!isMcpServerConnected(catalogId, server)) return { server, status: "not connected" };
      if (!contributing.has(server)) return { server, status: "switched off" };
      try {
        const offer = await offerOf(db, catalogId, server);
        const approvals = await approvalsOf(db, catalogId, server, offer);
        return { server, status: "live", offer: previewOffer({ server, ...offer }, permits, (prompt) => approvals[prompt.name] === promptDigest(prompt)) };
      } catch {
        return { server, status: "failed to list" };
      }
    }),
  );
}
