import "server-only";
import { log } from "@/lib/observability/log";
import { recordImportJob } from "@/lib/observability/metrics";
import { randomUUID } from "node:crypto";
import { type Db, isPostgres } from "@/db/client";
import type { ImportJobInput, ImportPreview } from "@/db/import-job";
import { runImport, runImportPreview } from "@/db/import-runner";
import { deleteImportJobsFinishedBefore, findImportJob, saveImportJob } from "@/db/queries/import-jobs";
import type { ImportJobError, ImportProgress } from "@/lib/catalogs/import-job";
import type { ImportResult } from "@/lib/catalogs/import-plan";
import { notFound, ToolshedError } from "@/lib/errors";

/**
 * Imports of at most this many tools are answered with their result (200), larger ones with a job
 * to follow (202). Either way the work runs in the import worker, never on the request's thread.
 */
export const SYNC_IMPORT_MAX_TOOLS = 1_000;

/** An import as its page and the API show it. */
export interface ImportJob {
  id: string;
  catalogId: string;
  status: "running" | "done" | "failed";
  progress: ImportProgress;
  result?: ImportResult;
  /** In the API's error shape: what failed, and every problem with its field. */
  error?: ImportJobError;
  createdAt: string;
  finishedAt?: string;
}

/** Finished jobs are forgotten after this long. */
const KEEP_FINISHED_MS = 60 * 60 * 1000;

/**
 * Where jobs are kept: on PostgreSQL in the database, so that the instance a poll reaches knows the
 * job another instance runs; on SQLite, which one instance serves, in that process's memory.
 */
interface ImportJobStore {
  save(job: ImportJob): Promise<void>;
  get(id: string): Promise<ImportJob | undefined>;
}

/** Jobs in this process's memory: finished ones are forgotten after an hour, and at most 500 are kept. */
class MemoryImportJobStore implements ImportJobStore {
  private readonly jobs = new Map<string, ImportJob>();

  constructor(
    private readonly keepFinishedMs = KEEP_FINISHED_MS,
    private readonly maxJobs = 500,
  ) {}

  async save(job: ImportJob): Promise<void> {
    this.jobs.delete(job.id);
    this.jobs.set(job.id, job);
    this.prune();
  }

  async get(id: string): Promise<ImportJob | undefined> {
    return this.jobs.get(id);
  }

  private prune(): void {
    const now = Date.now();
    for (const [id, job] of this.jobs) {
      const finished = job.finishedAt ? Date.parse(job.finishedAt) : undefined;
      if (this.jobs.size > this.maxJobs || (finished !== undefined && now - finished > this.keepFinishedMs)) this.jobs.delete(id);
    }
  }
}

/** Jobs in the database (import_jobs): a finished job's save forgets those finished over an hour before. */
class DatabaseImportJobStore implements ImportJobStore {
  constructor(private readonly db: Db) {}

  async save(job: ImportJob): Promise<void> {
    await saveImportJob(this.db, {
      id: job.id,
      catalogId: job.catalogId,
      status: job.status,
      progress: job.progress,
      result: job.result ?? null,
      error: job.error ?? null,
      createdAt: new Date(job.createdAt),
      finishedAt: job.finishedAt ? new Date(job.finishedAt) : null,
    });
    if (job.finishedAt) await deleteImportJobsFinishedBefore(this.db, new Date(Date.now() - KEEP_FINISHED_MS));
  }

  async get(id: string): Promise<ImportJob | undefined> {
    const row = await findImportJob(this.db, id);
    if (!row) return undefined;
    const { result, error, createdAt, finishedAt, ...job } = row;
    return {
      ...job,
      ...(result ? { result } : {}),
      ...(error ? { error } : {}),
      createdAt: createdAt.toISOString(),
      ...(finishedAt ? { finishedAt: finishedAt.toISOString() } : {}),
    };
  }
}

const shared = globalThis as unknown as { toolshedImportJobs?: MemoryImportJobStore };

function importJobStore(db: Db): ImportJobStore {
  if (isPostgres(db)) return new DatabaseImportJobStore(db);
  shared.toolshedImportJobs ??= new MemoryImportJobStore();
  return shared.toolshedImportJobs;
}

function importJobUrl(catalogId: string, id: string): string {
  return `/api/catalogs/${encodeURIComponent(catalogId)}/import-jobs/${encodeURIComponent(id)}`;
}

function errorOf(error: unknown): ImportJobError {
  if (error instanceof ToolshedError) return error.toJSON().error;
  log.error({ err: error }, "Import failed:");
  return { code: "internal", message: "Internal error: the server log has details." };
}

/**
 * The document: JSON as bytes (an HTTP body) or text (a file the page read) is decoded and parsed
 * by the job, off this thread; or already parsed.
 */
export type ImportDocument = { bytes: Uint8Array } | { text: string } | { document: unknown };

function jobInput(catalogId: string, document: ImportDocument, actor: string): ImportJobInput {
  return { catalogId, actor, ...document };
}

/**
 * Bytes between two pauses of the body read, for other requests to be served meanwhile: each of
 * them needs several turns of the event loop, so the slices are kept short.
 */
const READ_SLICE = 256 * 1024;

/**
 * Reads an import's body as bytes, at most `maxBytes`: a declared Content-Length above it is
 * refused unread, and the count stops the read the moment it passes (413). A body the proxy has
 * already buffered arrives without a pause, so the read lets other work through every 256 KiB;
 * the bytes go to the import worker as they are (no decoding here).
 */
export async function readImportBody(request: Request, maxBytes: number): Promise<Uint8Array> {
  const tooLarge = (size: string) => new ToolshedError("too_large", `The import ${size}; the limit is ${maxBytes} bytes.`);
  const declared = Number(request.headers.get("content-length") ?? "");
  if (Number.isFinite(declared) && declared > maxBytes) {
    await request.body?.cancel().catch(() => undefined);
    throw tooLarge(`is ${declared} bytes`);
  }
  const parts: Uint8Array[] = [];
  let size = 0;
  let sinceBreak = 0;
  if (request.body) {
    const reader = request.body.getReader();
    try {
      for (let next = await reader.read(); !next.done; next = await reader.read()) {
        size += next.value.byteLength;
        if (size > maxBytes) {
          await reader.cancel().catch(() => undefined);
          throw tooLarge(`passes ${maxBytes} bytes`);
        }
        parts.push(next.value);
        sinceBreak += next.value.byteLength;
        if (sinceBreak >= READ_SLICE) {
          sinceBreak = 0;
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
    } finally {
      reader.releaseLock();
    }
  }
  // Next.js's proxy buffers bodies up to experimental.proxyClientMaxBodySize and passes on only that much.
  if (Number.isFinite(declared) && size < declared) {
    throw new ToolshedError(
      "too_large",
      `The server received ${size} of the ${declared} bytes sent: its proxy passes on at most that much (experimental.proxyClientMaxBodySize).`,
    );
  }
  // A body buffered whole (the usual case behind the proxy) comes as one chunk of its own: no copy.
  const [only] = parts;
  if (parts.length === 1 && only.byteOffset === 0 && only.byteLength === only.buffer.byteLength) return only;
  const body = new Uint8Array(new ArrayBuffer(size));
  let offset = 0;
  for (const part of parts) {
    body.set(part, offset);
    offset += part.byteLength;
  }
  return body;
}

/**
 * Starts an import. A document of at most SYNC_IMPORT_MAX_TOOLS tools is waited for: its result,
 * or its error (thrown, as the API answers it). A larger one returns a job at once, to follow with
 * getImportJob. All or nothing either way.
 */
export async function startImport(
  db: Db,
  catalogId: string,
  document: ImportDocument,
  actor: string,
): Promise<{ result: ImportResult } | { job: { id: string; url: string } }> {
  const store = importJobStore(db);
  let job: ImportJob = {
    id: randomUUID(),
    catalogId,
    status: "running",
    progress: { done: 0, total: 0, phase: "reading" },
    createdAt: new Date().toISOString(),
  };
  await store.save(job);
  // Saves in the order of the changes, one at a time.
  let saves = Promise.resolve();
  const record = (change: Partial<ImportJob>) => {
    job = { ...job, ...change };
    const state = job;
    saves = saves.then(() => store.save(state)).catch((error: unknown) => log.error({ err: error }, `Saving import job ${state.id} failed:`));
    return saves;
  };
  let large!: () => void;
  const becameLarge = new Promise<"large">((resolve) => (large = () => resolve("large")));
  const finished = runImport(db, jobInput(catalogId, document, actor), (progress) => {
    // Reported every 250 tools checked: about 200 saves for 50,000.
    void record({ progress });
    if (progress.total > SYNC_IMPORT_MAX_TOOLS) large();
  }).then(
    async (result) => {
      const total = result.created.length + result.updated.length + result.unchanged.length + result.skipped.length;
      recordImportJob(catalogId, "done");
      await record({ status: "done", result, progress: { done: total, total, phase: "writing" }, finishedAt: new Date().toISOString() });
      return { result };
    },
    async (error: unknown) => {
      recordImportJob(catalogId, "failed");
      await record({ status: "failed", error: errorOf(error), finishedAt: new Date().toISOString() });
      return { error };
    },
  );
  const first = await Promise.race([finished, becameLarge]);
  if (first === "large") return { job: { id: job.id, url: importJobUrl(catalogId, job.id) } };
  if ("error" in first) throw first.error;
  return { result: first.result };
}

/**
 * What an import of the document would do to the catalog as it is now, tool by tool (a dry run,
 * written nowhere); waited for however large, and worked out off this thread like an import.
 */
export async function previewImport(db: Db, catalogId: string, document: ImportDocument): Promise<ImportPreview> {
  return runImportPreview(db, jobInput(catalogId, document, ""));
}

/** A job of this catalog, as `GET …/import-jobs/{id}` answers it; 404 for an unknown one or another catalog's. */
export async function getImportJob(db: Db, catalogId: string, id: string): Promise<Pick<ImportJob, "id" | "status" | "progress" | "result" | "error">> {
  const job = await importJobStore(db).get(id);
  if (!job || job.catalogId !== catalogId) throw notFound(`Import job "${id}"`, "id");
  const { id: jobId, status, progress, result, error } = job;
  return { id: jobId, status, progress, ...(result ? { result } : {}), ...(error ? { error } : {}) };
}
