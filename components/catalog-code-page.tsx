"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { toast } from "sonner";
import { applyCatalogFileAction } from "@/app/catalogs/[catalog]/code/actions";
import type { ActionResult } from "@/lib/action-result";
import type { ApplySummary } from "@/lib/catalogs/apply-plan";
import { ApplyPlanView } from "./apply-plan-view";
import { JsonFileButton } from "./json-file-button";
import { settleAction } from "./save-state";

type Failure = Extract<ActionResult<unknown>, { ok: false }>["error"];

/** Where the page is with a file: checking it, its plan shown, applying it, applied, or refused (with every problem). */
type Step =
  | { step: "idle" }
  | { step: "checking" | "applying"; fileName: string }
  | { step: "planned"; fileName: string; text: string; plan: ApplySummary }
  | { step: "applied"; fileName: string; plan: ApplySummary }
  | { step: "failed"; fileName: string; text?: string; failure: Failure };

const ACCEPT = ".yaml,.yml,.json,application/yaml,application/json";

/**
 * The catalog as code: its file to download (YAML or JSON), and for editors a file to apply,
 * planned first (what it creates, changes, deletes) and applied only once they confirm.
 */
export function CatalogCodePage({ catalogId, mayApply }: { catalogId: string; mayApply: boolean }) {
  return (
    <div className="stack">
      <ExportPanel catalogId={catalogId} />
      {mayApply && <ApplyPanel catalogId={catalogId} />}
    </div>
  );
}

function ExportPanel({ catalogId }: { catalogId: string }) {
  const exportUrl = (format: string) => `/api/catalogs/${encodeURIComponent(catalogId)}/export?format=${format}`;
  return (
    <section className="panel stack" aria-label="Export">
      <h2 style={{ margin: 0 }}>Export</h2>
      <p className="muted small">
        The whole catalog as one file (tools, agents, rules, MCP servers) to keep in a repository and apply elsewhere. Secrets are never in it: each is a
        reference to an environment variable, <code>{`\${env:NAME}`}</code>.
      </p>
      <div className="row">
        <a className="button" href={exportUrl("yaml")} download data-testid="export-yaml">
          Download YAML
        </a>
        <a className="button" href={exportUrl("json")} download data-testid="export-json">
          Download JSON
        </a>
      </div>
    </section>
  );
}

function ApplyPanel({ catalogId }: { catalogId: string }) {
  const router = useRouter();
  const [state, setState] = useState<Step>({ step: "idle" });
  const [prune, setPrune] = useState(false);

  const plan = async (fileName: string, text: string, withPrune: boolean) => {
    setState({ step: "checking", fileName });
    const answer = await settleAction(() => applyCatalogFileAction(catalogId, { text, dryRun: true, prune: withPrune }));
    setState(answer.ok ? { step: "planned", fileName, text, plan: answer.data } : { step: "failed", fileName, text, failure: answer.error });
  };

  const apply = async (fileName: string, text: string) => {
    setState({ step: "applying", fileName });
    const answer = await settleAction(() => applyCatalogFileAction(catalogId, { text, dryRun: false, prune }));
    if (!answer.ok) {
      setState({ step: "failed", fileName, text, failure: answer.error });
      return;
    }
    setState({ step: "applied", fileName, plan: answer.data });
    toast.success(`Applied ${fileName}`);
    router.refresh();
  };

  const busy = state.step === "checking" || state.step === "applying";
  return (
    <section className="panel stack" aria-label="Apply a file" data-testid="apply-panel">
      <h2 style={{ margin: 0 }}>Apply a file</h2>
      <p className="muted small">Choose a catalog file: what it would change is shown first, and nothing is written until you apply it.</p>
      <div className="row">
        <JsonFileButton
          accept={ACCEPT}
          inputTestId="apply-file"
          buttonTestId="apply-choose"
          disabled={busy}
          onFile={(file) => void file.text().then((text) => plan(file.name, text, prune))}
        >
          {state.step === "checking" ? "Checking…" : "Choose a file"}
        </JsonFileButton>
        <label className="row small">
          <input
            type="checkbox"
            checked={prune}
            disabled={busy}
            data-testid="apply-prune"
            onChange={(event) => {
              setPrune(event.target.checked);
              if (state.step === "planned" || (state.step === "failed" && state.text !== undefined))
                void plan(state.fileName, state.text ?? "", event.target.checked);
            }}
          />
          Delete custom tools, agents and MCP servers the file does not name
        </label>
      </div>
      {state.step === "failed" && <ApplyRefusal fileName={state.fileName} failure={state.failure} />}
      {state.step === "planned" && (
        <PlannedApply
          plan={state.plan}
          fileName={state.fileName}
          onCancel={() => setState({ step: "idle" })}
          onApply={() => void apply(state.fileName, state.text)}
        />
      )}
      {state.step === "applying" && <p className="muted small">Applying {state.fileName}…</p>}
      {state.step === "applied" && <ApplyPlanView plan={state.plan} done />}
    </section>
  );
}

/** Why the file was refused, with every problem when there is more than the message says. */
function ApplyRefusal({ fileName, failure }: { fileName: string; failure: Failure }) {
  return (
    <div className="error-box" role="alert" data-testid="apply-error">
      <b>{fileName} cannot be applied: nothing was changed.</b> {failure.message}
      {failure.problems.length > 1 && (
        <ul className="small mono">
          {failure.problems.map((problem) => (
            <li key={`${problem.field}:${problem.message}`}>
              {problem.field}: {problem.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The plan, and Apply (disabled when it would change nothing) or Cancel. */
function PlannedApply({ plan, fileName, onCancel, onApply }: { plan: ApplySummary; fileName: string; onCancel: () => void; onApply: () => void }) {
  return (
    <>
      <ApplyPlanView plan={plan} done={false} />
      <div className="row end">
        <button type="button" className="ghost" onClick={onCancel}>
          Cancel
        </button>
        <button
          type="button"
          className="primary"
          data-testid="apply-confirm"
          disabled={plan.created.length + plan.changed.length + plan.deleted.length === 0}
          onClick={onApply}
        >
          Apply {fileName}
        </button>
      </div>
    </>
  );
}
