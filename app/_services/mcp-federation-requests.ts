import "server-only";
import type { GetPromptResult, ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import { getDb } from "@/db/client";
import { getCatalog } from "@/db/queries/catalogs";
import { recordDecision } from "@/db/queries/decisions";
import { actorOf } from "@/lib/auth/policy";
import { argumentsFingerprint } from "@/lib/gateway/call-check";
import type { FederationDecisionInput, FederationDecisionResult } from "@/lib/gateway/federation";
import type { Caller, GatewaySession } from "./mcp-gateway";
import { sessionCallDecision } from "./mcp-gateway-call";
import { FederatedItemNotFound, getUpstreamPrompt, promptRoute, readableResource, readUpstreamResource } from "./mcp-federation";

/**
 * A session's reads of federated resources and gets of federated prompts, each a decision of its
 * conversation as its tool calls are, of its own kind ("resource-read", "prompt-get"): no tool
 * usage is counted for them. A refusal (unknown, denied, held back) records why for the catalog's
 * readers; the caller reads the same "not found" whatever the reason.
 */

type FederationKind = "resource-read" | "prompt-get";

/** What a request's checks found: the server it goes to, and the catalog's revision they read. */
interface Checked {
  server: string;
  revision: number;
}

/** The longest reason a decision keeps of an upstream's failure. */
const REASON_MAX = 1_000;

async function recorded<C extends Checked, T>(
  session: GatewaySession,
  caller: Caller,
  kind: FederationKind,
  asked: Omit<FederationDecisionInput, "server" | "actor">,
  check: () => Promise<C>,
  work: (checked: C) => Promise<T>,
): Promise<T> {
  const started = performance.now();
  const decide = async (revision: number, server: string | null, result: FederationDecisionResult) => {
    const input: FederationDecisionInput = { ...asked, server, actor: actorOf(caller.principal) };
    await recordDecision(getDb(), {
      ...sessionCallDecision(session),
      revision,
      kind,
      input,
      result,
      rejected: result.outcome === "refused" ? [{ name: asked.item, reason: result.reason! }] : [],
      latencyMs: Math.round(performance.now() - started),
      tokens: {},
    });
  };
  let checked: C;
  try {
    checked = await check();
  } catch (error) {
    if (error instanceof FederatedItemNotFound) {
      await decide((await getCatalog(getDb(), session.catalogId)).revision, null, { outcome: "refused", reason: error.reason });
    }
    throw error;
  }
  try {
    const answer = await work(checked);
    await decide(checked.revision, checked.server, { outcome: "ok", reason: null });
    return answer;
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).slice(0, REASON_MAX);
    await decide(checked.revision, checked.server, { outcome: "error", reason });
    throw error;
  }
}

/** Reads a federated resource for a session, recorded as its decision. */
export function readResourceFor(session: GatewaySession, caller: Caller, uri: string, signal?: AbortSignal): Promise<ReadResourceResult> {
  return recorded(
    session,
    caller,
    "resource-read",
    { item: uri },
    async () => {
      const { target, revision } = await readableResource(session.catalogId, session.turn, uri);
      return { server: target.server, target, revision };
    },
    ({ target }) => readUpstreamResource(session.catalogId, target, { signal, upstreamDetails: caller.access === "admin" }),
  );
}

/** Gets a federated prompt for a session, recorded as its decision (its arguments by size and digest only, as a call's). */
export function getPromptFor(
  session: GatewaySession,
  caller: Caller,
  name: string,
  args: Record<string, string>,
  signal?: AbortSignal,
): Promise<GetPromptResult> {
  return recorded(
    session,
    caller,
    "prompt-get",
    { item: name, ...argumentsFingerprint(args) },
    async () => {
      const { route, revision } = await promptRoute(session.catalogId, session.turn, name);
      return { server: route.server, route, revision };
    },
    ({ route }) => getUpstreamPrompt(session.catalogId, route, args, { signal, upstreamDetails: caller.access === "admin" }),
  );
}
