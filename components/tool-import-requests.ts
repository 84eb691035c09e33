import type { ImportPreview } from "@/db/import-job";
import type { ServerImportPreview, ServerImportResult } from "@/lib/catalogs/mcp-client-config";
import type { ImportResult } from "@/lib/catalogs/import-plan";
import { UNREACHABLE } from "./api-client";

export type { ServerImportPreview, ServerImportResult };

export type ImportProgress = { done: number; total: number; phase?: string };

/** What a dry run of a file answers: the tools it would create, update… or the MCP servers it would add. */
export type FilePreview = ImportPreview | ServerImportPreview;

/** What an import did: to the tools, or the servers it added. */
export type FileResult = ImportResult | ServerImportResult;

export const isServerPreview = (preview: FilePreview): preview is ServerImportPreview => "servers" in preview;
export const isServerResult = (result: FileResult): result is ServerImportResult => "servers" in result;

/** Between two looks at a running import job. */
const IMPORT_POLL_MS = 500;

/** An API error as the page shows it: its message, then its first problems by field. */
function problemsText(error: { message: string; problems?: { field: string; message: string }[] }): string {
  const problems = error.problems ?? [];
  const details = problems.slice(0, 5).map((p) => `${p.field}: ${p.message}`);
  const more = problems.length > 5 ? [`… and ${problems.length - 5} more`] : [];
  return [error.message, ...details, ...more].join("\n");
}

/**
 * A request to the import API and its JSON answer, its status with it; a failure throws with the
 * API's message and problems (or says the server could not be reached, or failed).
 */
async function send<T>(url: string, init: RequestInit): Promise<{ status: number; body: T }> {
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch {
    throw new Error(UNREACHABLE);
  }
  const body = await response.json().catch(() => undefined);
  if (response.ok && body !== undefined) return { status: response.status, body: body as T };
  if (body?.error?.message) throw new Error(problemsText(body.error));
  throw new Error(`The server failed to answer (${response.status}${response.statusText ? ` ${response.statusText}` : ""}).`);
}

const importUrl = (catalogId: string, dryRun: boolean) => `/api/catalogs/${encodeURIComponent(catalogId)}/import${dryRun ? "?dryRun=1" : ""}`;

/**
 * Posts the file itself to POST …/import, as agents do: the browser streams it, the server reads it
 * as bytes and parses it off its main thread, so no size of file (up to the import's 64 MiB and
 * 50,000 tools) passes through a server action's argument limits.
 */
function postFile<T>(catalogId: string, file: Blob, dryRun: boolean) {
  return send<T>(importUrl(catalogId, dryRun), { method: "POST", headers: { "content-type": "application/json", accept: "application/json" }, body: file });
}

/** What importing the file would do, however large, written nowhere. */
export async function previewFile(catalogId: string, file: Blob): Promise<FilePreview> {
  return (await postFile<{ preview: FilePreview }>(catalogId, file, true)).body.preview;
}

type Job = {
  id: string;
  status: "running" | "done" | "failed";
  progress: ImportProgress;
  result?: ImportResult;
  error?: { message: string; problems?: { field: string; message: string }[] };
};

/** Follows a job until it is done (its result) or failed (its error, having written nothing). */
async function followJob(catalogId: string, jobId: string, onProgress: (progress: ImportProgress) => void, pollMs: number): Promise<ImportResult> {
  const url = `/api/catalogs/${encodeURIComponent(catalogId)}/import-jobs/${encodeURIComponent(jobId)}`;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, pollMs));
    const { job } = (await send<{ job: Job }>(url, { headers: { accept: "application/json" } })).body;
    onProgress(job.progress);
    if (job.status === "done" && job.result) return job.result;
    if (job.status === "failed") throw new Error(problemsText(job.error ?? { message: "The import failed." }));
  }
}

/**
 * Imports the file and follows it: a small one answers with its result at once (an MCP client
 * configuration with the servers it added), a large one with a job whose progress is polled.
 */
export async function importFile(catalogId: string, file: Blob, onProgress: (progress: ImportProgress) => void, pollMs = IMPORT_POLL_MS): Promise<FileResult> {
  onProgress({ done: 0, total: 0, phase: "sending" });
  const started = await postFile<FileResult | { job: { id: string } }>(catalogId, file, false);
  if (started.status !== 202) return started.body as FileResult;
  return followJob(catalogId, (started.body as { job: { id: string } }).job.id, onProgress, pollMs);
}
