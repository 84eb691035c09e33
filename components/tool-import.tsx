"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { toast } from "sonner";
import { queryKeys } from "./api-client";
import { JsonFileButton } from "./json-file-button";
import { ServerConfirmButton, ServerPreview, ServersDone } from "./server-import-preview";
import { ConfirmButton, ImportDone, PreviewLists, resultCounts } from "./tool-import-preview";
import { type FilePreview, type FileResult, type ImportProgress, importFile, isServerPreview, isServerResult, previewFile } from "./tool-import-requests";

/** Where an import of a file stands: its preview, then the person's go-ahead, the import, and what it did. */
type ImportStep =
  | { step: "idle" }
  | { step: "checking"; fileName: string }
  | { step: "preview"; fileName: string; file: File; preview: FilePreview }
  | { step: "importing"; fileName: string; preview: FilePreview; progress?: ImportProgress }
  | { step: "done"; fileName: string; preview: FilePreview; result: FileResult }
  | { step: "failed"; fileName: string; what: string; message: string };

/** What the toast says an import did. */
function doneText(result: FileResult): string {
  return isServerResult(result) ? `Added ${result.servers.map((server) => server.name).join(", ")}` : `Imported: ${resultCounts(result)}`;
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

  const check = async (file: File) => {
    setState({ step: "checking", fileName: file.name });
    try {
      setState({ step: "preview", fileName: file.name, file, preview: await previewFile(catalogId, file) });
    } catch (error) {
      setState({ step: "failed", fileName: file.name, what: "read", message: (error as Error).message });
    }
  };

  const confirm = async (fileName: string, file: File, preview: FilePreview) => {
    setState({ step: "importing", fileName, preview });
    try {
      const result = await importFile(catalogId, file, (progress) => setState({ step: "importing", fileName, preview, progress }));
      setState({ step: "done", fileName, preview, result });
      toast.success(doneText(result));
      void queryClient.invalidateQueries({ queryKey: queryKeys.tools(catalogId) });
      router.refresh();
    } catch (error) {
      setState({ step: "failed", fileName, what: "import", message: (error as Error).message });
    }
  };

  const busy = state.step === "checking" || state.step === "importing";
  return (
    <>
      {state.step === "importing" && state.progress && <Progress progress={state.progress} />}
      <JsonFileButton inputTestId="import-file" buttonTestId="import-button" onFile={(file) => void check(file)} disabled={busy}>
        {state.step === "checking" ? "Checking…" : state.step === "importing" ? "Importing…" : "Import"}
      </JsonFileButton>
      {state.step !== "idle" && state.step !== "checking" && (
        <section className="panel import-panel" aria-label={`Import of ${state.fileName}`} data-testid="import-panel">
          <PanelBody state={state} catalogId={catalogId} onShowImported={onShowImported} />
          <div className="row">
            {state.step === "preview" && <Confirm preview={state.preview} onConfirm={() => confirm(state.fileName, state.file, state.preview)} />}
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

function Progress({ progress }: { progress: ImportProgress }) {
  return (
    <span className="import-progress" data-testid="import-progress">
      <progress value={progress.done} max={Math.max(progress.total, 1)} aria-label="Import progress" />
      <span className="small mono">
        {progress.phase && <span className="muted">{progress.phase} </span>}
        {progress.done.toLocaleString("en")} / {progress.total.toLocaleString("en")}
      </span>
    </span>
  );
}

function Confirm({ preview, onConfirm }: { preview: FilePreview; onConfirm: () => void }) {
  return isServerPreview(preview) ? <ServerConfirmButton preview={preview} onConfirm={onConfirm} /> : <ConfirmButton preview={preview} onConfirm={onConfirm} />;
}

/** The panel's text: why the file was refused, what the import did, or what it would do. */
function PanelBody({
  state,
  catalogId,
  onShowImported,
}: {
  state: Exclude<ImportStep, { step: "idle" | "checking" }>;
  catalogId: string;
  onShowImported: (revision: number) => void;
}) {
  if (state.step === "failed") {
    return (
      <div className="error-box" role="alert" data-testid="import-error">
        <b>
          {state.what === "read"
            ? `${state.fileName} cannot be imported: nothing was changed.`
            : `The import of ${state.fileName} was refused: nothing was changed.`}
        </b>
        <pre className="small import-message">{state.message}</pre>
      </div>
    );
  }
  if (state.step === "done") {
    if (isServerResult(state.result)) return <ServersDone catalogId={catalogId} result={state.result} />;
    if (isServerPreview(state.preview)) return null;
    return <ImportDone result={state.result} preview={state.preview} onShowImported={onShowImported} />;
  }
  if (isServerPreview(state.preview)) return <ServerPreview fileName={state.fileName} preview={state.preview} />;
  return <PreviewLists fileName={state.fileName} preview={state.preview} />;
}
