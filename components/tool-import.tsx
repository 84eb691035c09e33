"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, type ReactNode } from "react";
import { toast } from "sonner";
import { importJobAction, previewImportAction, startImportAction } from "@/app/catalogs/[catalog]/tools/actions";
import type { ImportPreview, PreviewedTool } from "@/db/import-job";
import type { ImportResult } from "@/lib/catalogs/import-plan";
import { queryKeys } from "./api-client";
import { JsonFileButton } from "./json-file-button";
import { settleAction } from "./save-state";

type ImportProgress = { done: number; total: number; phase?: string };

/** Where an import of a file stands: its preview, then the person's go-ahead, the import, and what it did. */
type ImportStep =
  | { step: "idle" }
  | { step: "checking"; fileName: string }
  | { step: "preview"; fileName: string; text: string; preview: ImportPreview }
  | { step: "importing"; fileName: string; preview: ImportPreview; progress?: ImportProgress }
  | { step: "done"; fileName: string; preview: ImportPreview; result: ImportResult }
  | { step: "failed"; fileName: string; what: string; message: string };

/** Between two looks at a running import job. */
const IMPORT_POLL_MS = 500;
/** A list of the preview shows this many tools, then says how many more there are. */
const LISTED = 200;

const FIELD_NAMES: Record<ImportPreview["updated"][number]["fields"][number], string> = {
  summary: "summary",
  description: "description",
  inputSchema: "input schema",
  tags: "tags",
  enabled: "enabled",
};

function resultCounts(result: ImportResult): string {
  const refused = result.skipped.length > 0 ? `, ${result.skipped.length} refused` : "";
  return `${result.created.length} created, ${result.updated.length} updated, ${result.unchanged.length} unchanged${refused}`;
}

function problemsText(error: { message: string; problems: { field: string; message: string }[] }): string {
  const details = error.problems.slice(0, 5).map((p) => `${p.field}: ${p.message}`);
  const more = error.problems.length > 5 ? [`… and ${error.problems.length - 5} more`] : [];
  return [error.message, ...details, ...more].join("\n");
}

/**
 * Sends an import (the file's text: the server parses it off its main thread) and follows it: a
 * small one answers with its result at once, a large one with a job whose progress is polled
 * until it is done (or failed, having written nothing).
 */
async function runImport(catalogId: string, text: string, onProgress: (progress: ImportProgress) => void): Promise<ImportResult> {
  onProgress({ done: 0, total: 0, phase: "sending" });
  const started = await settleAction(() => startImportAction(catalogId, text));
  if (!started.ok) throw new Error(problemsText(started.error));
  if ("result" in started.data) return started.data.result;
  const jobId = started.data.job.id;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, IMPORT_POLL_MS));
    const polled = await settleAction(() => importJobAction(catalogId, jobId));
    if (!polled.ok) throw new Error(problemsText(polled.error));
    const job = polled.data;
    onProgress(job.progress);
    if (job.status === "done" && job.result) return job.result;
    if (job.status === "failed") throw new Error(problemsText({ message: job.error?.message ?? "The import failed.", problems: job.error?.problems ?? [] }));
  }
}

/** Whether the import did, tool by tool, what its preview said (it did not if the catalog changed in between). */
function asPreviewed(preview: ImportPreview, result: ImportResult): boolean {
  const names = (tools: PreviewedTool[]) => JSON.stringify(tools.map((tool) => tool.name));
  return (
    names(preview.created) === JSON.stringify(result.created) &&
    names(preview.updated) === JSON.stringify(result.updated) &&
    names(preview.unchanged) === JSON.stringify(result.unchanged) &&
    names(preview.skipped) === JSON.stringify(result.skipped.map((tool) => tool.name))
  );
}

/**
 * Importing a file into the tools table: choosing it shows what the import would do (created,
 * updated with the fields that change, unchanged, refused with why, invalid with every problem),
 * the person confirms or cancels, the import runs with its progress, and what it did is shown with
 * a way to list exactly the tools it created or updated (`onShowImported` gets its revision).
 * Renders inside the toolbar: the button in its row, the panel on a line of its own.
 */
export function ToolImport({ catalogId, onShowImported }: { catalogId: string; onShowImported: (revision: number) => void }) {
  const queryClient = useQueryClient();
  const router = useRouter();
  const [state, setState] = useState<ImportStep>({ step: "idle" });

  const previewFile = async (file: File) => {
    setState({ step: "checking", fileName: file.name });
    const text = await file.text();
    const answer = await settleAction(() => previewImportAction(catalogId, text));
    if (!answer.ok) setState({ step: "failed", fileName: file.name, what: "read", message: problemsText(answer.error) });
    else setState({ step: "preview", fileName: file.name, text, preview: answer.data });
  };

  const confirm = async (fileName: string, text: string, preview: ImportPreview) => {
    setState({ step: "importing", fileName, preview });
    try {
      const result = await runImport(catalogId, text, (progress) => setState({ step: "importing", fileName, preview, progress }));
      setState({ step: "done", fileName, preview, result });
      toast.success(`Imported: ${resultCounts(result)}`);
      void queryClient.invalidateQueries({ queryKey: queryKeys.tools(catalogId) });
      router.refresh();
    } catch (error) {
      setState({ step: "failed", fileName, what: "import", message: (error as Error).message });
    }
  };

  const busy = state.step === "checking" || state.step === "importing";
  return (
    <>
      {state.step === "importing" && state.progress && (
        <span className="import-progress" data-testid="import-progress">
          <progress value={state.progress.done} max={Math.max(state.progress.total, 1)} aria-label="Import progress" />
          <span className="small mono">
            {state.progress.phase && <span className="muted">{state.progress.phase} </span>}
            {state.progress.done.toLocaleString("en")} / {state.progress.total.toLocaleString("en")}
          </span>
        </span>
      )}
      <JsonFileButton inputTestId="import-file" buttonTestId="import-button" onFile={(file) => void previewFile(file)} disabled={busy}>
        {state.step === "checking" ? "Checking…" : state.step === "importing" ? "Importing…" : "Import"}
      </JsonFileButton>
      {state.step !== "idle" && state.step !== "checking" && (
        <section className="panel import-panel" aria-label={`Import of ${state.fileName}`} data-testid="import-panel">
          {state.step === "failed" ? (
            <div className="error-box" role="alert" data-testid="import-error">
              <b>
                {state.what === "read"
                  ? `${state.fileName} cannot be imported: nothing was changed.`
                  : `The import of ${state.fileName} was refused: nothing was changed.`}
              </b>
              <pre className="small">{state.message}</pre>
            </div>
          ) : state.step === "done" ? (
            <ImportDone result={state.result} preview={state.preview} onShowImported={onShowImported} />
          ) : (
            <PreviewLists fileName={state.fileName} preview={state.preview} />
          )}
          <div className="row">
            {state.step === "preview" && <ConfirmButton preview={state.preview} onConfirm={() => confirm(state.fileName, state.text, state.preview)} />}
            {state.step !== "importing" && (
              <button type="button" className="ghost" onClick={() => setState({ step: "idle" })} data-testid="import-close">
                {state.step === "preview" ? "Cancel" : "Close"}
              </button>
            )}
          </div>
        </section>
      )}
    </>
  );
}

function ConfirmButton({ preview, onConfirm }: { preview: ImportPreview; onConfirm: () => void }) {
  const changes = preview.created.length + preview.updated.length;
  if (preview.invalid.length > 0)
    return (
      <span className="small" data-testid="import-blocked">
        Fix the invalid tools in the file and choose it again: the import takes the file whole or not at all.
      </span>
    );
  if (changes === 0)
    return (
      <span className="small" data-testid="import-nothing">
        Nothing to import: every tool of the file is unchanged or refused.
      </span>
    );
  return (
    <button type="button" className="primary" onClick={onConfirm} data-testid="import-confirm">
      Import: create {preview.created.length}, update {preview.updated.length}
    </button>
  );
}

/** What the import would do, list by list, each tool by its name in the file and its place there. */
function PreviewLists({ fileName, preview }: { fileName: string; preview: ImportPreview }) {
  return (
    <div data-testid="import-preview">
      <p>
        <b>Importing {fileName}</b> into this catalog as it is now (revision {preview.revision}) would:
      </p>
      <ul className="import-counts" data-testid="import-preview-counts">
        <li>create {preview.created.length}</li>
        <li>update {preview.updated.length}</li>
        <li>leave {preview.unchanged.length} unchanged</li>
        <li>refuse {preview.skipped.length}</li>
        {preview.invalid.length > 0 && <li className="invalid">find {preview.invalid.length} invalid</li>}
      </ul>
      <ToolList title="Invalid" testId="import-invalid" tools={preview.invalid} open>
        {(tool) => (
          <ul>
            {tool.problems.map((problem) => (
              <li key={`${problem.field} ${problem.message}`}>
                <code>{problem.field.replace(/^tools\.\d+\.?/, "") || "tool"}</code> {problem.message}
              </li>
            ))}
          </ul>
        )}
      </ToolList>
      <ToolList title="Refused" testId="import-refused" tools={preview.skipped} open>
        {(tool) => <>: {tool.reason}</>}
      </ToolList>
      <ToolList title="Updated" testId="import-updated" tools={preview.updated} open>
        {(tool) => <>: {tool.fields.map((field) => FIELD_NAMES[field]).join(", ")}</>}
      </ToolList>
      <ToolList title="Created" testId="import-created" tools={preview.created} />
      <ToolList title="Unchanged" testId="import-unchanged" tools={preview.unchanged} />
    </div>
  );
}

function ToolList<T extends PreviewedTool>({
  title,
  testId,
  tools,
  open,
  children,
}: {
  title: string;
  testId: string;
  tools: T[];
  open?: boolean;
  children?: (tool: T) => ReactNode;
}) {
  if (tools.length === 0) return null;
  return (
    <details className="small import-list" open={open} data-testid={testId}>
      <summary>
        {title} ({tools.length.toLocaleString("en")})
      </summary>
      <ul>
        {tools.slice(0, LISTED).map((tool) => (
          <li key={tool.index}>
            <span className="mono">{tool.name ?? "(no name)"}</span>{" "}
            <span className="faint" title="Its place in the file's tools list">
              #{tool.index + 1}
            </span>
            {children?.(tool)}
          </li>
        ))}
        {tools.length > LISTED && <li className="faint">… and {(tools.length - LISTED).toLocaleString("en")} more</li>}
      </ul>
    </details>
  );
}

/** What the import did, said to differ from the preview when the catalog changed in between. */
function ImportDone({ result, preview, onShowImported }: { result: ImportResult; preview: ImportPreview; onShowImported: (revision: number) => void }) {
  const changed = result.created.length + result.updated.length;
  return (
    <div>
      <p data-testid="import-result">Imported: {resultCounts(result)}</p>
      {!asPreviewed(preview, result) && (
        <p className="differs" role="status" data-testid="import-differs">
          The catalog changed after the preview (revision {preview.revision}): this is what the import did, not what the preview said.
        </p>
      )}
      {result.skipped.length > 0 && (
        <details className="small import-list" data-testid="import-skipped">
          <summary>{result.skipped.length} refused</summary>
          <ul>
            {result.skipped.slice(0, LISTED).map((tool) => (
              <li key={tool.name}>
                <span className="mono">{tool.name}</span>: {tool.reason}
              </li>
            ))}
          </ul>
        </details>
      )}
      {changed > 0 && (
        <button type="button" onClick={() => onShowImported(result.revision)} data-testid="show-imported">
          Show imported tools ({changed.toLocaleString("en")})
        </button>
      )}
    </div>
  );
}
