import Link from "next/link";
import type { PreviewedServer, ServerImportPreview, ServerImportResult } from "@/lib/catalogs/mcp-client-config";
import { FormatLine } from "./tool-import-preview";

/** A server's problem field without the file's prefix and its key: "env.TOKEN", or "server" for the server as a whole. */
function fieldOf(server: PreviewedServer, field: string): string {
  const at = field.indexOf(`.${server.key}`);
  const rest = at < 0 ? field : field.slice(at + server.key.length + 2);
  return rest || "server";
}

function ServerItem({ server }: { server: PreviewedServer }) {
  return (
    <li data-testid={`import-server-${server.key}`}>
      <span className="mono">{server.name}</span>
      {server.transport && (
        <>
          {" "}
          <span className="faint">({server.transport})</span> <span className="mono small wrap-anywhere">{server.target}</span>
        </>
      )}
      {server.secrets.length > 0 && (
        <div className="small muted">
          {server.transport === "http" ? "Headers" : "Environment"} {server.secrets.join(", ")}: stored encrypted, shown as ********
        </div>
      )}
      {server.notes.length > 0 && (
        <ul className="small muted">
          {server.notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      )}
      {server.problems.length > 0 && (
        <ul className="small invalid">
          {server.problems.map((problem) => (
            <li key={`${problem.field} ${problem.message}`}>
              <code>{fieldOf(server, problem.field)}</code> {problem.message}
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

/** What importing an MCP client configuration would add to the Sources page: each server, with what keeps it out. */
export function ServerPreview({ fileName, preview }: { fileName: string; preview: ServerImportPreview }) {
  const blocked = preview.servers.filter((server) => server.problems.length > 0).length;
  return (
    <div data-testid="import-preview">
      <p>
        <b>Importing {fileName}</b> would add {preview.servers.length} MCP {preview.servers.length === 1 ? "server" : "servers"} to this catalog
        {blocked > 0 && <span className="invalid"> ({blocked} cannot be added as they are)</span>}:
      </p>
      <FormatLine format={preview.format} notes={[]} />
      <ul className="import-servers" data-testid="import-servers">
        {preview.servers.map((server) => (
          <ServerItem key={server.key} server={server} />
        ))}
      </ul>
    </div>
  );
}

export function ServerConfirmButton({ preview, onConfirm }: { preview: ServerImportPreview; onConfirm: () => void }) {
  if (preview.servers.some((server) => server.problems.length > 0))
    return (
      <span className="small" data-testid="import-blocked">
        Fix the servers above in the file and choose it again: the import adds all of its servers or none.
      </span>
    );
  return (
    <button type="button" className="primary" onClick={onConfirm} data-testid="import-confirm">
      Add {preview.servers.length} MCP {preview.servers.length === 1 ? "server" : "servers"}
    </button>
  );
}

/** The servers the import added, each with the tools its first sync found or why it could not connect. */
export function ServersDone({ catalogId, result }: { catalogId: string; result: ServerImportResult }) {
  return (
    <div>
      <p data-testid="import-result">
        Added {result.servers.length} MCP {result.servers.length === 1 ? "server" : "servers"}:
      </p>
      <ul className="small">
        {result.servers.map(({ name, sync }) => (
          <li key={name}>
            <span className="mono">{name}</span>:{" "}
            {sync.error ? <span className="invalid">could not connect yet ({sync.error})</span> : `${sync.added.length} tools`}
          </li>
        ))}
      </ul>
      <Link href={`/catalogs/${encodeURIComponent(catalogId)}/sources`} data-testid="import-sources-link">
        See them on the Sources page
      </Link>
    </div>
  );
}
