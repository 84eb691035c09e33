"use client";

import Link from "next/link";
import { useId, useState, useTransition } from "react";
import { previewModelRulesAction } from "@/app/catalogs/[catalog]/rules/actions";
import type { ActionData } from "@/lib/action-result";
import type { ModelRule } from "@/lib/rules/model-rules";

type Preview = ActionData<typeof previewModelRulesAction>;

/**
 * What the model rules as typed would do to the Simulator's list of a chosen model and agent, asked
 * of the server (the pipeline, with the draft in place of the saved rules) before Save; nothing is saved.
 */
export function ModelRulesPreview({
  catalogId,
  rules,
  model,
  agents,
  label,
}: {
  catalogId: string;
  /** Reads the rules as typed now. */
  rules: () => ModelRule[];
  /** The model id typed to try the rules on. */
  model: string;
  agents: string[];
  label: (message: string) => string;
}) {
  const agentId = useId();
  const [agent, setAgent] = useState(agents[0] ?? "");
  const [preview, setPreview] = useState<Preview>();
  const [problem, setProblem] = useState<string>();
  const [pending, startTransition] = useTransition();
  const run = () =>
    startTransition(async () => {
      const result = await previewModelRulesAction(catalogId, { modelRules: rules(), model, agent });
      setPreview(result.ok ? result.data : undefined);
      setProblem(result.ok ? undefined : label(result.error.message));
    });
  const simulatorHref = `/catalogs/${catalogId}/simulator?${new URLSearchParams({ model, agent })}`;
  return (
    <div className="card stack" data-testid="rules-preview">
      <div className="row" style={{ flexWrap: "wrap", alignItems: "flex-end" }}>
        <div className="field">
          <label htmlFor={agentId}>Agent</label>
          <select id={agentId} value={agent} onChange={(event) => setAgent(event.target.value)} data-testid="rules-preview-agent">
            {agents.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </div>
        <button type="button" onClick={run} disabled={pending || !model || !agent} data-testid="rules-preview-run">
          {pending ? "Previewing…" : model ? `Preview the list of ${model}` : "Type a model id above to preview its list"}
        </button>
      </div>
      {problem && (
        <div className="error-box" role="alert" data-testid="rules-preview-problem">
          {problem}
        </div>
      )}
      {preview && !problem && <PreviewResult preview={preview} simulatorHref={simulatorHref} />}
    </div>
  );
}

function PreviewResult({ preview, simulatorHref }: { preview: Preview; simulatorHref: string }) {
  const unchanged = preview.added.length === 0 && preview.removed.length === 0;
  return (
    <div className="stack small" role="status" data-testid="rules-preview-result">
      <div>
        With these edits, <code>{preview.model}</code> as <code>{preview.agent}</code> gets <b>{preview.after}</b> tools (
        {unchanged ? "the same as now" : `${preview.before} now`}). <Link href={simulatorHref}>The saved rules in the Simulator</Link>
      </div>
      {preview.added.length > 0 && (
        <div data-testid="rules-preview-added">
          <span className="diff-added">Gains:</span> <span className="mono">{preview.added.join(", ")}</span>
        </div>
      )}
      {preview.removed.length > 0 && (
        <div data-testid="rules-preview-removed">
          <span className="diff-removed">Loses:</span> <span className="mono">{preview.removed.join(", ")}</span>
        </div>
      )}
    </div>
  );
}
