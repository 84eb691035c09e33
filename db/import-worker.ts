/**
 * The import worker: a worker thread with its own connection to the database (SQLite file or
 * PostgreSQL), where imports are parsed, validated and written, or previewed (db/import-job.ts),
 * while the main thread keeps answering requests. WAL lets the main thread read a SQLite file
 * meanwhile; the write is one short transaction.
 * Started by db/import-runner.ts; jobs arrive one message each and run one at a time.
 */
import "server-only";
import { parentPort } from "node:worker_threads";
import { ToolshedError } from "@/lib/errors";
import { type DatabaseLocation, type Db, openLocation } from "./client";
import type { ImportProgress } from "@/lib/catalogs/import-job";
import { previewImportJob, runImportJob } from "./import-job";
import type { WorkerReply, WorkerRequest } from "./import-runner";

const connections = new Map<string, Db>();

function connection(location: DatabaseLocation): Db {
  const key = JSON.stringify(location);
  let db = connections.get(key);
  if (!db) {
    db = openLocation(location);
    connections.set(key, db);
  }
  return db;
}

function reply(message: WorkerReply): void {
  parentPort!.postMessage(message);
}

async function handle(request: WorkerRequest): Promise<void> {
  const report = (progress: ImportProgress) => reply({ type: "progress", id: request.id, progress });
  try {
    const db = connection(request.location);
    const result = await (request.mode === "preview" ? previewImportJob(db, request.input, report) : runImportJob(db, request.input, report));
    reply({ type: "done", id: request.id, result });
  } catch (error) {
    if (error instanceof ToolshedError) {
      reply({ type: "failed", id: request.id, error: { code: error.code, message: error.message, field: error.field, problems: error.problems } });
    } else {
      console.error("Import failed:", error);
      reply({ type: "failed", id: request.id, error: { code: "internal", message: "Internal error: the server log has details." } });
    }
  }
}

/** Jobs one after another, in the order they came, even where one waits for the database. */
let queue = Promise.resolve();
parentPort!.on("message", (request: WorkerRequest) => {
  queue = queue.then(() => handle(request));
});
