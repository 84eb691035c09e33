"use client";

import type { ServerPreview } from "@/app/_services/mcp-federation";
import { federationPreviewAction } from "@/app/catalogs/[catalog]/simulator/actions";
import { useActionQuery } from "./action-query";
import type { ToolListConfig } from "./api-client";
import { useCatalogRevision } from "./catalog-revision";

/** Why a server shows nothing: what the agent would be offered comes from a live connection only. */
const NOT_LIVE: Record<Exclude<ServerPreview["status"], "live">, string> = {
  "not connected": "not connected on this instance: its resources and prompts show once it is (Sources page)",
  "switched off": "switched off: all its tools are disabled, so sessions see none of its resources and prompts",
  "failed to list": "its resources and prompts could not be listed",
};

/** What the configuration's agent would be offered of the MCP servers' resources and prompts, at the catalog's newest revision. */
export function FederationPreviewPanel({ catalogId, config }: { catalogId: string; config: ToolListConfig }) {
  const revision = useCatalogRevision(catalogId);
  const { query, shown } = useActionQuery(["federation-preview", catalogId, revision ?? null, config.model, config.agent], () =>
    federationPreviewAction(catalogId, config),
  );
  return (
    <div className="panel stack" data-testid="sim-federation">
      <h2>Resources and prompts</h2>
      {query.error && <div className="error-box">{query.error.message}</div>}
      {shown && <FederationPreviewList servers={shown} />}
    </div>
  );
}

export function FederationPreviewList({ servers }: { servers: ServerPreview[] }) {
  if (servers.length === 0) return <p className="muted">No MCP servers in this catalog.</p>;
  return (
    <ul className="plain-list stack">
      {servers.map((preview) => (
        <li key={preview.server} data-testid={`sim-federation-${preview.server}`}>
          <b>{preview.server}</b>{" "}
          {preview.status === "live" ? (
            <OfferItems offer={preview.offer} />
          ) : (
            <span className="muted small" data-testid="sim-federation-status">
              — {NOT_LIVE[preview.status]}
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}

type Offer = Extract<ServerPreview, { status: "live" }>["offer"];

function OfferItems({ offer }: { offer: Offer }) {
  const items = [
    ...offer.resources.map((item) => ({ kind: "resource", name: item.name, detail: item.uri, denied: item.denied, heldBack: false })),
    ...offer.templates.map((item) => ({ kind: "template", name: item.name, detail: item.uriTemplate, denied: item.denied, heldBack: false })),
    ...offer.prompts.map((item) => ({ kind: "prompt", name: item.name, detail: "", denied: item.denied, heldBack: item.heldBack })),
  ];
  if (items.length === 0) return <span className="muted small">— offers no resources nor prompts</span>;
  const offered = items.filter((item) => !item.denied && !item.heldBack).length;
  return (
    <>
      <span className="muted small">
        — {offered} of {items.length} offered to this agent
      </span>
      <ul className="plain-list small">
        {items.map((item) => (
          <li
            key={`${item.kind} ${item.name}`}
            data-testid={`sim-federation-item-${item.name}`}
            style={item.denied || item.heldBack ? { opacity: 0.6 } : undefined}
          >
            <span className="tag">{item.kind}</span> <code>{item.name}</code> {item.detail && <span className="faint mono">{item.detail}</span>}
            {item.denied && <span className="badge off"> denied by the agent's permissions</span>}
            {item.heldBack && <span className="badge warn"> held back: waits for an editor's approval</span>}
          </li>
        ))}
      </ul>
    </>
  );
}
