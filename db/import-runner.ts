import "server-only";
import { Worker } from "node:worker_threads";
import { ToolshedError, type ErrorCode } from "@/lib/errors";
import type { FieldError } from "@/lib/tools/validate";
import { type DatabaseLocation, locationOf, type Db } from "./client";
import type { ImportJobInput, ImportPreview } from "./import-job";
import type { ImportProgress } from "@/lib/catalogs/import-job";
import type { ImportResult } from "@/lib/catalogs/import-plan";

/** What a job does: import, or work out what an import would do (a dry run, writing nothing). */
type ImportMode = "import" | "preview";

/** What the main thread sends the import worker: one import or preview, on the database at `location`. */
export interface WorkerRequest {
  id: number;
  location: DatabaseLocation;
  mode: ImportMode;
  input: ImportJobInput;
}

interface SerializedError {
  code: ErrorCode | "internal";
  message: string;
  field?: string;
  problems?: FieldError[];
}

export type WorkerReply =
  | { type: "progress"; id: number; progress: ImportProgress }
  | { type: "done"; id: number; result: ImportResult | ImportPreview }
  | { type: "failed"; id: number; error: SerializedError };

interface Pending {
  resolve: (result: ImportResult | ImportPreview) => void;
  reject: (error: Error) => void;
  onProgress: (progress: ImportProgress) => void;
}

/**
 * An idle worker is stopped after this long, which frees the memory the last imports used; small
 * imports in a row share one worker. Starting one again costs a fraction of a second.
 */
const IDLE_MS = 5_000;

/**
 * After a document of at least this many bytes (some 1,700 tools), the worker stops the moment it
 * is idle: what an import holds grows with its document (≈ 130 MB of RSS after 10,000 tools,
 * ≈ 250 MB after 50,000), and for IDLE_MS it would sit beside the first requests on the catalog
 * just imported, which build its lists, and raise the server's peak by as much.
 */
const STOP_AT_ONCE_AFTER_BYTES = 1024 * 1024;

interface WorkerState {
  worker: Worker;
  pending: Map<number, Pending>;
  idle?: NodeJS.Timeout;
  nextId: number;
  /** A job since the worker was last idle read a document of STOP_AT_ONCE_AFTER_BYTES or more. */
  stopWhenIdle: boolean;
}

const state = globalThis as unknown as { toolshedImportWorker?: WorkerState };

/**
 * The worker thread. Under `next dev` and `next start` the bundler turns `new Worker(new URL(…,
 * import.meta.url))` into a worker chunk of db/import-worker.ts and its imports. Unbundled (vitest,
 * tsx), a small bootstrap registers tsx in the worker first, and the bundler is told to leave it be;
 * the worker resolves under React's server condition, where the "server-only" marker of db/ loads.
 */
function spawn(): Worker {
  if (process.env.NEXT_RUNTIME) return new Worker(new URL("./import-worker.ts", import.meta.url));
  const execArgv = [...process.execArgv, "--conditions=react-server"];
  return new Worker(/* turbopackIgnore: true */ new URL("./import-worker-dev.mjs", import.meta.url), { execArgv });
}

function toError(error: SerializedError): Error {
  if (error.code === "internal") return new Error(error.message);
  return new ToolshedError(error.code, error.message, error.field, error.problems);
}

function workerState(): WorkerState {
  if (state.toolshedImportWorker) return state.toolshedImportWorker;
  const current: WorkerState = { worker: spawn(), pending: new Map<number, Pending>(), nextId: 1, stopWhenIdle: false };
  const { worker } = current;
  const fail = (error: Error) => {
    if ((state.toolshedImportWorker as WorkerState | undefined) === current) state.toolshedImportWorker = undefined;
    clearTimeout(current.idle);
    for (const pending of current.pending.values()) pending.reject(error);
    current.pending.clear();
  };
  worker.on("message", (reply: WorkerReply) => {
    const pending = current.pending.get(reply.id);
    if (!pending) return;
    if (reply.type === "progress") return pending.onProgress(reply.progress);
    current.pending.delete(reply.id);
    if (reply.type === "done") pending.resolve(reply.result);
    else pending.reject(toError(reply.error));
    if (current.pending.size === 0) idle(current);
  });
  worker.on("error", (error) => {
    console.error("The import worker failed:", error);
    fail(new Error("The import worker stopped unexpectedly: the server log has details."));
  });
  worker.on("exit", (code) => fail(new Error(`The import worker exited (code ${code}).`)));
  state.toolshedImportWorker = current;
  return current;
}

/** No job left: the worker no longer keeps the process alive, and stops after a while (at once after a large document). */
function idle(current: WorkerState): void {
  if (current.stopWhenIdle) {
    if (state.toolshedImportWorker === current) void stopImportWorker();
    return;
  }
  current.worker.unref();
  clearTimeout(current.idle);
  current.idle = setTimeout(() => {
    if (current.pending.size === 0) void stopImportWorker();
  }, IDLE_MS);
  current.idle.unref();
}

/** Whether an import worker is running (tests). */
export function importWorkerRunning(): boolean {
  return state.toolshedImportWorker !== undefined;
}

/** Stops the import worker (tests, shutdown); imports still running in it fail. */
export async function stopImportWorker(): Promise<void> {
  const current = state.toolshedImportWorker;
  if (!current) return;
  state.toolshedImportWorker = undefined;
  clearTimeout(current.idle);
  await current.worker.terminate();
}

/**
 * Runs an import off the request's path: on a database file or PostgreSQL, in the import worker
 * thread (its own connection; one import at a time, in order); on an in-memory database, which no other
 * connection can reach, on this thread once the caller has returned. `onProgress` hears how far it is.
 */
export function runImport(db: Db, input: ImportJobInput, onProgress: (progress: ImportProgress) => void = () => {}): Promise<ImportResult> {
  return runJob(db, "import", input, onProgress) as Promise<ImportResult>;
}

/** A dry run of an import, where an import runs (see runImport): what it would do, written nowhere. */
export function runImportPreview(db: Db, input: ImportJobInput): Promise<ImportPreview> {
  return runJob(db, "preview", input, () => {}) as Promise<ImportPreview>;
}

function runJob(db: Db, mode: ImportMode, input: ImportJobInput, onProgress: (progress: ImportProgress) => void): Promise<ImportResult | ImportPreview> {
  const location = locationOf(db);
  if (!location) {
    // Loaded here only: validation (Ajv) and the parsing stay out of the main thread's code otherwise.
    return import("./import-job").then(
      (job) =>
        new Promise((resolve, reject) => {
          setImmediate(() => {
            const run = async () => (mode === "preview" ? job.previewImportJob(db, input, onProgress) : job.runImportJob(db, input, onProgress));
            run().then(resolve, reject);
          });
        }),
    );
  }
  const current = workerState();
  const id = current.nextId++;
  clearTimeout(current.idle);
  if ((input.bytes?.byteLength ?? input.text?.length ?? 0) >= STOP_AT_ONCE_AFTER_BYTES) current.stopWhenIdle = true;
  current.worker.ref();
  return new Promise((resolve, reject) => {
    current.pending.set(id, { resolve, reject, onProgress });
    // A body's bytes move to the worker instead of being copied (the caller hands over a buffer of their own).
    const whole = input.bytes && input.bytes.byteOffset === 0 && input.bytes.byteLength === input.bytes.buffer.byteLength;
    current.worker.postMessage({ id, location, mode, input } satisfies WorkerRequest, whole ? [input.bytes!.buffer as ArrayBuffer] : []);
  });
}
