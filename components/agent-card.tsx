"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { toast } from "sonner";
import { deleteAgentAction } from "@/app/catalogs/[catalog]/agents/actions";
import type { Agent } from "@/lib/rules/agents";
import { useCan } from "./catalog-access";
import { ConfirmButton } from "./confirm-button";
import { withContentKeys } from "./content-keys";
import { AgentForm, type KnownNames } from "./agent-form";
import { useSaveAction } from "./save-state";

/** An agent as saved, with Edit (which turns the card into its form) and Delete. */
export function AgentCard({ catalogId, agent, known }: { catalogId: string; agent: Agent; known: KnownNames }) {
  const router = useRouter();
  const [editing, setEditing] = useState(false);
  const deletion = useSaveAction();
  const canEdit = useCan("write");
  const remove = () =>
    deletion.save(
      () => deleteAgentAction(catalogId, agent.name),
      () => {
        toast.success(`Deleted ${agent.name}`);
        router.refresh();
      },
      (error) => toast.error(`Could not delete agent ${agent.name}: ${error.message}`, { action: { label: "Retry", onClick: remove } }),
    );
  if (editing) return <AgentForm catalogId={catalogId} agent={agent} previousName={agent.name} known={known} onDone={() => setEditing(false)} />;
  return (
    <div className="card" data-testid={`agent-${agent.name}`}>
      <div className="spread">
        <div className="row">
          <span className="title">{agent.name}</span>
          <span className="badge">{agent.mode}</span>
        </div>
        {canEdit && (
          <div className="row">
            <button type="button" className="small-button" onClick={() => setEditing(true)} data-testid={`edit-agent-${agent.name}`}>
              Edit
            </button>
            <ConfirmButton
              label="Delete"
              className="danger small-button"
              title={`Delete agent ${agent.name}?`}
              body="Simulations and the task tool stop offering it."
              confirmLabel="Delete agent"
              onConfirm={remove}
            />
          </div>
        )}
      </div>
      <p className="muted small">{agent.description || "No description."}</p>
      <div className="small">
        <span className="muted">Permissions: </span>
        {withContentKeys(agent.permissions, (rule) => `${rule.pattern} ${rule.action}`).map(([key, rule]) => (
          <span key={key} className="tag">
            {rule.pattern} → <b>{rule.action}</b>
          </span>
        ))}
      </div>
      <div className="small">
        <span className="muted">Base tools: </span>
        {agent.baseTools.length === 0 ? (
          <span className="faint">none</span>
        ) : (
          agent.baseTools.map((name) => (
            <span key={name} className="tag">
              {name}
            </span>
          ))
        )}
      </div>
    </div>
  );
}
