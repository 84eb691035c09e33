"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { toast } from "sonner";
import { deleteMcpServerAction, syncMcpServerAction } from "@/app/catalogs/[catalog]/sources/actions";
import type { McpServerView } from "@/db/queries/mcp-servers";
import { useCan } from "./catalog-access";
import { ConfirmButton } from "./confirm-button";
import type { McpOfferSummary } from "@/lib/gateway/federation";
import { McpHealthRow } from "./mcp-health-strip";
import { McpOfferRow } from "./mcp-offer-row";
import { RelativeTime } from "./relative-time";

/** The query of the catalog's servers, which the Sources page polls. */
export const mcpServersKey = (catalogId: string) => ["mcp-servers", catalogId] as const;

const STATUS_CLASS: Record<McpServerView["status"], string> = { connected: "ok", error: "off", never: "", starting: "warn" };

/** One MCP server of the Sources page: its configuration, status, tools, its last changes of health, and (for admins) sync and delete. */
export function McpServerRow({ catalogId, server, now, offer }: { catalogId: string; server: McpServerView; now: number; offer: McpOfferSummary | null }) {
  const isAdmin = useCan("admin");
  const config = server.config;
  const toolsHref = `/catalogs/${catalogId}/tools?source=mcp&q=${encodeURIComponent(`${server.name}__`)}`;
  return (
    <>
      <tr data-testid={`mcp-server-${server.name}`} data-status={server.status}>
        <td className="name">{server.name}</td>
        <td className="small mcp-endpoint">
          <span className="badge">{config.transport}</span>{" "}
          {config.transport === "stdio" ? (
            <>
              <code data-testid={`mcp-command-${server.name}`}>
                {[config.command, ...(config.args ?? []).map((arg) => (typeof arg === "string" ? arg : arg.value))].join(" ")}
              </code>
              <SecretList values={config.env} separator="=" testId={`mcp-env-${server.name}`} />
            </>
          ) : (
            <>
              <code data-testid={`mcp-url-${server.name}`}>{config.url}</code>
              <SecretList values={config.headers} separator=": " testId={`mcp-headers-${server.name}`} />
            </>
          )}
          {config.credentials && config.credentials.mode !== "shared" && (
            <div className="muted" data-testid={`mcp-credentials-${server.name}`}>
              Each person calls it with their own {config.credentials.mode === "per-user-oauth" ? "OAuth sign-in" : "secret"}:{" "}
              <Link href={`/connections?catalog=${encodeURIComponent(catalogId)}&server=${encodeURIComponent(server.name)}`}>Connections</Link>
            </div>
          )}
          {config.mediumFindings === "auto" && (
            <div className="muted" data-testid={`mcp-medium-findings-${server.name}`}>
              Tools with medium poisoning findings are approved with its listings.
            </div>
          )}
        </td>
        <td>
          <span className={`badge ${STATUS_CLASS[server.status]}`} data-testid={`mcp-status-${server.name}`}>
            {server.status}
          </span>
        </td>
        <td className="small" data-testid={`mcp-last-sync-${server.name}`}>
          {server.lastSyncAt ? <RelativeTime iso={server.lastSyncAt} now={now} /> : <span className="faint">never</span>}
        </td>
        <td className="small" style={{ whiteSpace: "nowrap" }}>
          <Link href={toolsHref} data-testid={`mcp-tools-${server.name}`} title="Show these tools on the Tools page">
            {server.registeredCount} / {server.toolCount} registered
          </Link>
          <HeldBackLink catalogId={catalogId} name={server.name} heldBack={server.heldBack} />
        </td>
        <td className="small" data-testid={`mcp-info-${server.name}`}>
          {server.serverInfo ? (
            <>
              {server.serverInfo.title ?? server.serverInfo.name} <span className="faint">{server.serverInfo.version}</span>
            </>
          ) : (
            <span className="faint">unknown</span>
          )}
        </td>
        <td>{isAdmin && <McpServerActions catalogId={catalogId} server={server} />}</td>
      </tr>
      <McpServerNotice server={server} now={now} />
      <McpHealthRow name={server.name} changes={server.health} now={now} />
      <McpOfferRow catalogId={catalogId} name={server.name} offer={offer} />
    </>
  );
}

/** A team admin's Sync and Delete of one server. */
function McpServerActions({ catalogId, server }: { catalogId: string; server: McpServerView }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const settle = () => {
    void queryClient.invalidateQueries({ queryKey: mcpServersKey(catalogId) });
    router.refresh();
  };
  const sync = useMutation({
    mutationFn: async () => {
      const result = await syncMcpServerAction(catalogId, server.name);
      if (!result.ok) throw new Error(result.error.message);
      return result.data;
    },
    onSuccess: ({ sync: outcome, server: after }) => {
      queryClient.setQueryData<McpServerView[]>(mcpServersKey(catalogId), (list) => list?.map((item) => (item.name === after.name ? after : item)));
      if (outcome.error) toast.error(`Could not sync ${server.name}`, { description: outcome.error, duration: 10_000 });
      else toast.success(`Synced ${server.name}: ${syncCounts(outcome, after.heldBack)}`);
    },
    onError: (error) => toast.error(`Could not sync ${server.name}`, { description: error.message }),
    onSettled: settle,
  });
  const remove = useMutation({
    mutationFn: async () => {
      const result = await deleteMcpServerAction(catalogId, server.name);
      if (!result.ok) throw new Error(result.error.message);
    },
    onSuccess: () => toast.success(`Deleted MCP server ${server.name}`),
    onError: (error) => toast.error(error.message),
    onSettled: settle,
  });
  return (
    <div className="row" style={{ justifyContent: "flex-end", flexWrap: "nowrap" }}>
      <button
        type="button"
        className="small-button"
        onClick={() => sync.mutate()}
        disabled={sync.isPending || remove.isPending}
        data-testid={`mcp-sync-${server.name}`}
      >
        {sync.isPending ? "Syncing…" : "Sync"}
      </button>
      <ConfirmButton
        label={remove.isPending ? "Deleting…" : "Delete"}
        className="danger small-button"
        title={`Delete MCP server ${server.name}?`}
        body="Its connection is closed and its tools leave the catalog; their audit history stays."
        confirmLabel="Delete server"
        onConfirm={() => remove.mutate()}
        testId={`mcp-delete-${server.name}`}
      />
    </div>
  );
}

/** What the server's connection waits for while it starts, or its last error (or warning). */
function McpServerNotice({ server, now }: { server: McpServerView; now: number }) {
  if (server.starting) {
    return (
      <tr className="sources-error-row">
        <td colSpan={7}>
          <div className="sources-warn-box small" role="status" data-testid={`mcp-starting-${server.name}`}>
            <b>Starting</b> (<RelativeTime iso={server.starting.since} now={now} />
            ): <span className="sources-pre">{server.starting.message}</span>
          </div>
        </td>
      </tr>
    );
  }
  if (!server.lastError) return null;
  const failed = server.status === "error";
  return (
    <tr className="sources-error-row">
      <td colSpan={7}>
        <div className={failed ? "error-box small" : "sources-warn-box small"} role={failed ? "alert" : undefined} data-testid={`mcp-error-${server.name}`}>
          <b>{failed ? "Error" : "Warning"}:</b> <span className="sources-pre">{server.lastError}</span>
        </div>
      </td>
    </tr>
  );
}

/** What a sync did; a tool it added or changed that is held back is counted as such, not as offered. */
function syncCounts(outcome: { added: string[]; updated: string[]; unregistered: string[]; conflicts: unknown[] }, heldBack: string[]): string {
  const held = new Set(heldBack);
  const [added, updated] = [outcome.added, outcome.updated].map((names) => names.filter((name) => !held.has(name)).length);
  const parts = [`${added} added`, `${updated} updated`, `${outcome.unregistered.length} unregistered`];
  const newlyHeld = [...outcome.added, ...outcome.updated].filter((name) => held.has(name)).length;
  if (newlyHeld) parts.push(`${newlyHeld} held back for review`);
  if (outcome.conflicts.length) parts.push(`${outcome.conflicts.length} name conflict(s)`);
  return parts.join(", ");
}

/**
 * "N held back for review": the server's tools that reach no model until an editor approves what
 * the server now says they are; it leads to the one tool's page, or to the Tools page's reviews.
 */
function HeldBackLink({ catalogId, name, heldBack }: { catalogId: string; name: string; heldBack: string[] }) {
  if (heldBack.length === 0) return null;
  const href = heldBack.length === 1 ? `/catalogs/${catalogId}/tools/${encodeURIComponent(heldBack[0])}` : `/catalogs/${catalogId}/tools#definition-reviews`;
  return (
    <div>
      <Link href={href} className="badge warn" data-testid={`mcp-held-back-${name}`} title={`Waiting for an editor's review: ${heldBack.join(", ")}`}>
        {heldBack.length} held back for review
      </Link>
    </div>
  );
}

/** Env variables or headers: the names only; their values are secrets and never come back from the server. */
function SecretList({ values, separator, testId }: { values: Record<string, string> | undefined; separator: string; testId: string }) {
  const names = Object.keys(values ?? {});
  if (names.length === 0) return null;
  return (
    <div className="sources-secrets" data-testid={testId}>
      {names.map((name) => (
        <span key={name} className="tag mono">
          {name}
          {separator}
          {values![name]}
        </span>
      ))}
    </div>
  );
}
