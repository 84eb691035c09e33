import type { ReactNode } from "react";
import type { ImportPreview, PreviewedTool } from "@/db/import-job";
import type { ImportFormat } from "@/lib/catalogs/import-formats";
import type { ImportResult } from "@/lib/catalogs/import-plan";

/** A list of the preview shows this many tools, then says how many more there are. */
const LISTED = 200;

const FIELD_NAMES: Record<ImportPreview["updated"][number]["fields"][number], string> = {
  summary: "summary",
  description: "description",
  inputSchema: "input schema",
  tags: "tags",
  enabled: "enabled",
};

export function resultCounts(result: ImportResult): string {
  const refused = result.skipped.length > 0 ? `, ${result.skipped.length} refused` : "";
  return `${result.created.length} created, ${result.updated.length} updated, ${result.unchanged.length} unchanged${refused}`;
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

/** The format the file was read as, and what the import leaves out of it. */
export function FormatLine({ format, notes }: { format: ImportFormat; notes: string[] }) {
  return (
    <>
      <p className="small" data-testid="import-format">
        Read as <b>{format.label}</b>
      </p>
      {notes.length > 0 && (
        <ul className="small muted import-notes" data-testid="import-notes">
          {notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      )}
    </>
  );
}

export function ConfirmButton({ preview, onConfirm }: { preview: ImportPreview; onConfirm: () => void }) {
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
export function PreviewLists({ fileName, preview }: { fileName: string; preview: ImportPreview }) {
  return (
    <div data-testid="import-preview">
      <p>
        <b>Importing {fileName}</b> into this catalog as it is now (revision {preview.revision}) would:
      </p>
      <FormatLine format={preview.format} notes={preview.notes} />
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
export function ImportDone({ result, preview, onShowImported }: { result: ImportResult; preview: ImportPreview; onShowImported: (revision: number) => void }) {
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
      {result.flagged && result.flagged.length > 0 && (
        <details className="small import-list" open data-testid="import-flagged">
          <summary>{result.flagged.length} with text that may be written for the model (tool poisoning): read it on each tool's page</summary>
          <ul>
            {result.flagged.slice(0, LISTED).map((entry) => (
              <li key={entry.tool}>
                <span className="mono">{entry.tool}</span>: {entry.severity} ({entry.kinds.join(", ")})
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
