"use client";

import { useState } from "react";
import type { Agent } from "@/lib/rules/agents";
import { AgentCard } from "./agent-card";
import { AgentForm, type KnownNames } from "./agent-form";
import { useCan } from "./catalog-access";

const NEW_AGENT: Agent = { name: "", mode: "subagent", description: "", permissions: [{ pattern: "*", action: "allow" }], baseTools: [] };

export function AgentsEditor({ catalogId, agents, toolNames }: { catalogId: string; agents: Agent[]; toolNames: string[] }) {
  const [creating, setCreating] = useState(false);
  const canEdit = useCan("write");
  const known: KnownNames = { toolNames, agentNames: agents.map((agent) => agent.name) };
  return (
    <div className="stack">
      <datalist id="agent-tool-names">
        {toolNames.map((name) => (
          <option key={name} value={name} />
        ))}
        {agents.map((agent) => (
          <option key={`task-${agent.name}`} value={`task:${agent.name}`} />
        ))}
      </datalist>
      <div className="spread">
        <p className="muted" style={{ margin: 0 }}>
          Permission rules apply in order and the <b>last matching rule wins</b>; <code>*</code> is a wildcard; <code>deny</code> hides a tool,
          <code> ask</code> keeps it visible but needing approval. <code>task:&lt;agent&gt;</code> controls delegation, <code>skill:&lt;name&gt;</code> skills.
        </p>
        {canEdit && !creating && (
          <button type="button" className="primary" onClick={() => setCreating(true)} data-testid="new-agent">
            New agent
          </button>
        )}
      </div>
      {creating && <AgentForm catalogId={catalogId} agent={NEW_AGENT} known={known} onDone={() => setCreating(false)} />}
      {agents.map((agent) => (
        <AgentCard key={agent.name} catalogId={catalogId} agent={agent} known={known} />
      ))}
    </div>
  );
}
