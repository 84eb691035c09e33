"use client";

import { useQuery } from "@tanstack/react-query";
import type { McpServerView } from "@/db/queries/mcp-servers";
import type { McpOfferSummary } from "@/lib/gateway/federation";
import { useCan } from "./catalog-access";
import { AddMcpServerForm, INSTANCE_ADMIN_NOTE } from "./mcp-add-form";
import type { Transport } from "./mcp-add-form-schema";
import { McpServerRow, mcpServersKey } from "./mcp-server-row";
import { ActionsHeading, WideTable } from "./wide-table";

async function fetchMcpServers(catalogId: string): Promise<McpServerView[]> {
  const response = await fetch(`/api/catalogs/${encodeURIComponent(catalogId)}/mcp-servers`, { headers: { accept: "application/json" } });
  const body = await response.json();
  if (!response.ok) throw new Error(body?.error?.message ?? `Request failed: ${response.status}`);
  return body.servers as McpServerView[];
}

/** The catalog's MCP servers, their status polled while the page is open, and (for admins) the form that adds one. */
export function McpServersSection({
  catalogId,
  initial,
  offers,
  now,
  addableTransports,
  connectTimeoutMs,
}: {
  catalogId: string;
  initial: McpServerView[];
  /** Each server's resources and prompts, by name, as the page was rendered; null for one not connected. */
  offers: Record<string, McpOfferSummary | null>;
  now: number;
  addableTransports: Transport[];
  connectTimeoutMs: number;
}) {
  const isAdmin = useCan("admin");
  // Health changes on its own (a server dies, the periodic sync runs): poll while the page is open.
  const { data: servers = initial, error } = useQuery({
    queryKey: mcpServersKey(catalogId),
    queryFn: () => fetchMcpServers(catalogId),
    initialData: initial,
    refetchInterval: 5_000,
  });
  return (
    <section className="panel stack" data-testid="mcp-servers">
      <div>
        <h2 style={{ margin: 0 }}>MCP servers</h2>
        <p className="muted small" style={{ margin: "4px 0 0" }}>
          Each server&apos;s tools are registered as <code>&lt;server&gt;__&lt;tool&gt;</code> (source <span className="badge mcp">mcp</span>). When a server
          fails or disappears its tools stay in the catalog but are <b>unregistered</b>: never offered to a model, rejected by ToolSearch. Sync brings them
          back.
        </p>
      </div>
      {error && (
        <div className="error-box" role="alert">
          Could not refresh the servers&apos; status: {error.message}
        </div>
      )}
      {servers.length === 0 ? (
        <div className="empty" data-testid="mcp-servers-empty">
          <strong>No MCP servers yet</strong>
          Add one below: a command to run (stdio) or a URL (Streamable HTTP).
        </div>
      ) : (
        <McpServerTable catalogId={catalogId} servers={servers} offers={offers} now={now} />
      )}
      {isAdmin && addableTransports.length > 0 ? (
        <AddMcpServerForm catalogId={catalogId} transports={addableTransports} connectTimeoutMs={connectTimeoutMs} />
      ) : isAdmin ? (
        <p className="muted small" data-testid="sources-instance-admin-note">
          {INSTANCE_ADMIN_NOTE} While the operator lets MCP servers reach private addresses, HTTP servers need one too.
        </p>
      ) : (
        <p className="muted small" data-testid="sources-admin-note">
          Team admins add, sync and delete MCP servers.
        </p>
      )}
    </section>
  );
}

function McpServerTable({
  catalogId,
  servers,
  offers,
  now,
}: {
  catalogId: string;
  servers: McpServerView[];
  offers: Record<string, McpOfferSummary | null>;
  now: number;
}) {
  return (
    <WideTable testId="mcp-server-table">
      <table data-testid="mcp-server-table" className="sticky-actions">
        <thead>
          <tr>
            <th>Name</th>
            <th>Transport</th>
            <th>Status</th>
            <th>Last sync</th>
            <th>Tools</th>
            <th>Server</th>
            <ActionsHeading />
          </tr>
        </thead>
        <tbody>
          {servers.map((server) => (
            <McpServerRow key={server.name} catalogId={catalogId} server={server} now={now} offer={offers[server.name] ?? null} />
          ))}
        </tbody>
      </table>
    </WideTable>
  );
}
