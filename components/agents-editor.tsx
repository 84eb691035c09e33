"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { toast } from "sonner";
import { deleteAgentAction, saveAgentAction } from "@/app/catalogs/[catalog]/agents/actions";
import { useCan } from "./catalog-access";
import { AGENT_MODES, PERMISSION_ACTIONS, type Agent, type PermissionRule } from "@/lib/rules/agents";
import { permissionWarnings } from "@/lib/warnings";
import { ConfirmButton } from "./confirm-button";
import { withContentKeys } from "./content-keys";
import { editRowAt, rowValues, toEditableRow, toEditableRows } from "./editable-rows";
import { FieldErrors, errorsUnder, groupProblems, invalidProps, splitList } from "./field-errors";
import { SaveFailure, useSaveAction, useUnsavedChangesWarning } from "./save-state";
import { WarningList } from "./warning-list";

/** What permission patterns can name, to flag those naming nothing. */
type KnownNames = { toolNames: string[]; agentNames: string[] };

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

function AgentCard({ catalogId, agent, known }: { catalogId: string; agent: Agent; known: KnownNames }) {
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

function AgentForm({
  catalogId,
  agent,
  previousName,
  known,
  onDone,
}: {
  catalogId: string;
  agent: Agent;
  previousName?: string;
  known: KnownNames;
  onDone: () => void;
}) {
  const router = useRouter();
  const { pending, failure, save } = useSaveAction();
  const [name, setName] = useState(agent.name);
  const [mode, setMode] = useState(agent.mode);
  const [description, setDescription] = useState(agent.description);
  const [baseTools, setBaseTools] = useState(agent.baseTools.join(", "));
  const [rules, setRules] = useState(() => toEditableRows(agent.permissions));
  const problems = failure?.problems ?? [];
  const fieldId = (field: string) => `agent-${field}-${agent.name}`;
  const nameProblems = errorsUnder(problems, "name");
  const descriptionProblems = errorsUnder(problems, "description");
  const baseToolProblems = errorsUnder(problems, "baseTools");
  const draft: Agent = { name: name.trim(), mode, description: description.trim(), permissions: rowValues(rules), baseTools: splitList(baseTools) };
  useUnsavedChangesWarning(JSON.stringify(draft) !== JSON.stringify(agent));
  const warnings = permissionWarnings(draft.permissions, known);

  const editRule = (index: number, change: Partial<PermissionRule>) => setRules((current) => editRowAt(current, index, change));
  const moveRule = (index: number, by: number) =>
    setRules((current) => {
      const next = [...current];
      const [rule] = next.splice(index, 1);
      next.splice(index + by, 0, rule);
      return next;
    });

  const submit = () =>
    save(
      () => saveAgentAction(catalogId, draft, previousName),
      (saved) => {
        toast.success(`Saved agent ${saved.name}`);
        onDone();
        router.refresh();
      },
    );

  return (
    <form
      className="card stack"
      data-testid={`agent-form-${agent.name || "new"}`}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <div className="row">
        <div className="field" style={{ flex: 1 }}>
          <label htmlFor={fieldId("name")}>Name</label>
          <input
            id={fieldId("name")}
            value={name}
            onChange={(event) => setName(event.target.value)}
            className="mono"
            // biome-ignore lint/a11y/noAutofocus: the form opens when the user asks to create or edit an agent: the focus goes where they are about to type
            autoFocus
            required
            {...invalidProps(fieldId("name"), nameProblems)}
          />
          <FieldErrors problems={nameProblems} fieldId={fieldId("name")} />
        </div>
        <div className="field">
          <label htmlFor={fieldId("mode")}>Mode</label>
          <select id={fieldId("mode")} value={mode} onChange={(event) => setMode(event.target.value as Agent["mode"])}>
            {AGENT_MODES.map((option) => (
              <option key={option}>{option}</option>
            ))}
          </select>
        </div>
      </div>
      <div className="field">
        <label htmlFor={fieldId("description")}>
          Description <span className="hint">subagents: shown in the task tool&apos;s description</span>
        </label>
        <textarea
          id={fieldId("description")}
          rows={2}
          value={description}
          onChange={(event) => setDescription(event.target.value)}
          {...invalidProps(fieldId("description"), descriptionProblems)}
        />
        <FieldErrors problems={descriptionProblems} fieldId={fieldId("description")} />
      </div>
      <div className="field">
        <label htmlFor={fieldId("base")}>
          Base tools <span className="hint">always on for every turn; comma-separated</span>
        </label>
        <input
          id={fieldId("base")}
          value={baseTools}
          onChange={(event) => setBaseTools(event.target.value)}
          spellCheck={false}
          {...invalidProps(fieldId("base"), baseToolProblems)}
        />
        <FieldErrors problems={baseToolProblems} fieldId={fieldId("base")} />
      </div>
      <div>
        <h3>
          Permission rules <span className="hint">last match wins</span>
        </h3>
        <table>
          <tbody>
            {rules.map(({ key, value: rule }, index) => {
              const ruleId = fieldId(`permission-${index}`);
              const { problems: ruleProblems, invalid } = groupProblems(problems, `permissions.${index}`, ruleId);
              return (
                <tr key={key} data-testid={`permission-${index}`}>
                  <td style={{ width: 30 }} className="faint">
                    {index + 1}
                  </td>
                  <td>
                    <input
                      aria-label={`Pattern ${index + 1}`}
                      value={rule.pattern}
                      onChange={(event) => editRule(index, { pattern: event.target.value })}
                      list="agent-tool-names"
                      className="mono"
                      spellCheck={false}
                      {...invalid("pattern")}
                    />
                    <WarningList warnings={warnings.filter((warning) => warning.index === index)} testId={`permission-warning-${index}`} />
                    <FieldErrors problems={ruleProblems} fieldId={ruleId} />
                  </td>
                  <td>
                    <select
                      aria-label={`Action ${index + 1}`}
                      value={rule.action}
                      onChange={(event) => editRule(index, { action: event.target.value as PermissionRule["action"] })}
                      {...invalid("action")}
                    >
                      {PERMISSION_ACTIONS.map((action) => (
                        <option key={action}>{action}</option>
                      ))}
                    </select>
                  </td>
                  <td className="row" style={{ justifyContent: "flex-end" }}>
                    <button type="button" className="small-button" onClick={() => moveRule(index, -1)} disabled={index === 0} aria-label="Move up">
                      ↑
                    </button>
                    <button
                      type="button"
                      className="small-button"
                      onClick={() => moveRule(index, 1)}
                      disabled={index === rules.length - 1}
                      aria-label="Move down"
                    >
                      ↓
                    </button>
                    <button type="button" className="small-button danger" onClick={() => setRules((current) => current.filter((_, i) => i !== index))}>
                      Remove
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        <button
          type="button"
          className="small-button"
          style={{ marginTop: 8 }}
          onClick={() => setRules((current) => [...current, toEditableRow<PermissionRule>({ pattern: "", action: "deny" })])}
          data-testid="add-permission"
        >
          Add rule
        </button>
      </div>
      <FieldErrors problems={problems.filter((problem) => !/^(name|description|baseTools|permissions)/.test(problem.field))} />
      <SaveFailure failure={failure} what={previousName ? `agent ${previousName}` : "the new agent"} onRetry={submit} pending={pending} />
      <div className="row end">
        <button type="button" className="ghost" onClick={onDone}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={pending} data-testid="save-agent">
          Save agent
        </button>
      </div>
    </form>
  );
}
