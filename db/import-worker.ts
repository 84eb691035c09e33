/**
 * The import worker: a worker thread with its own connection to the database file, where imports
 * are parsed, validated and written (db/import-job.ts) while the main thread keeps answering
 * requests. WAL lets the main thread read meanwhile; the write is one short immediate transaction.
 * Started by db/import-runner.ts; jobs arrive one message each and run one at a time.
 */
import "server-only";
import { parentPort } from "node:worker_threads";
import { ToolshedError } from "@/lib/errors";
import { openDb, type Db } from "./client";
import { runImportJob } from "./import-job";
import type { WorkerReply, WorkerRequest } from "./import-runner";

const connections = new Map<string, Db>();

function connection(file: string): Db {
  let db = connections.get(file);
  if (!db) {
    db = openDb(file);
    connections.set(file, db);
  }
  return db;
}

function reply(message: WorkerReply): void {
  parentPort!.postMessage(message);
}

parentPort!.on("message", async (request: WorkerRequest) => {
  try {
    const result = await runImportJob(connection(request.file), request.input, (progress) => reply({ type: "progress", id: request.id, progress }));
    reply({ type: "done", id: request.id, result });
  } catch (error) {
    if (error instanceof ToolshedError) {
      reply({ type: "failed", id: request.id, error: { code: error.code, message: error.message, field: error.field, problems: error.problems } });
    } else {
      console.error("Import failed:", error);
      reply({ type: "failed", id: request.id, error: { code: "internal", message: "Internal error: the server log has details." } });
    }
  }
});
