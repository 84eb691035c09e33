"use server";

import { revalidatePath } from "next/cache";
import { authorizeCatalogAction } from "@/app/_services/access";
import { getImportJob, previewImport, startImport, type ImportDocument } from "@/app/_services/imports";
import { getDb } from "@/db/client";
import { reviewDefinition } from "@/db/queries/definition-reviews";
import { createCustomTool, deleteTool, updateTool } from "@/db/queries/tools";
import { runAction } from "@/lib/action-result";
import { definitionReviewBody, toolBody } from "@/lib/api-schemas";
import { parseWith } from "@/lib/http";

function refresh(catalogId: string) {
  revalidatePath(`/catalogs/${catalogId}`, "layout");
}

export async function createToolAction(catalogId: string, draft: unknown) {
  return runAction(async () => {
    const { actor } = await authorizeCatalogAction(catalogId, "write");
    const tool = await createCustomTool(getDb(), catalogId, parseWith(toolBody, draft), actor);
    refresh(catalogId);
    return tool;
  });
}

export async function updateToolAction(catalogId: string, name: string, patch: unknown) {
  return runAction(async () => {
    const { actor } = await authorizeCatalogAction(catalogId, "write");
    const tool = await updateTool(getDb(), catalogId, name, parseWith(toolBody, patch), actor);
    refresh(catalogId);
    return tool;
  });
}

/** Deletes a custom tool with every reference to it, as DELETE …/tools/{name} does, and answers the same. */
export async function deleteToolAction(catalogId: string, name: string) {
  return runAction(async () => {
    const { actor } = await authorizeCatalogAction(catalogId, "write");
    const deletion = await deleteTool(getDb(), catalogId, name, actor);
    refresh(catalogId);
    return deletion;
  });
}

/** Approves or rejects a held-back tool's definition, as POST …/definition-reviews does (editors). */
export async function reviewDefinitionAction(catalogId: string, verdict: unknown) {
  return runAction(async () => {
    const { actor } = await authorizeCatalogAction(catalogId, "write");
    const review = (await reviewDefinition(getDb(), catalogId, parseWith(definitionReviewBody, verdict), actor)) ?? null;
    refresh(catalogId);
    return review;
  });
}

/** The document as JSON text (what the page read from the file: parsed off the server's main thread) or parsed. */
function importDocument(document: unknown): ImportDocument {
  return typeof document === "string" ? { text: document } : { document };
}

/** What importing the document would do, tool by tool, as POST …/import?dryRun=1 answers it (editors: it is an import's first step). */
export async function previewImportAction(catalogId: string, document: unknown) {
  return runAction(async () => {
    await authorizeCatalogAction(catalogId, "write");
    return previewImport(getDb(), catalogId, importDocument(document));
  });
}

/**
 * Starts an import: `{ result }` (created / updated / unchanged / revision) for up to
 * SYNC_IMPORT_MAX_TOOLS tools, else `{ job: { id, url } }` to follow with importJobAction.
 */
export async function startImportAction(catalogId: string, document: unknown) {
  return runAction(async () => {
    const { actor } = await authorizeCatalogAction(catalogId, "write");
    const started = await startImport(getDb(), catalogId, importDocument(document), actor);
    if ("result" in started) refresh(catalogId);
    return started;
  });
}

/** An import job of the catalog: `{ id, status: "running" | "done" | "failed", progress: { done, total, phase }, result?, error? }`. */
export async function importJobAction(catalogId: string, jobId: string) {
  return runAction(async () => {
    await authorizeCatalogAction(catalogId, "read");
    const job = await getImportJob(getDb(), catalogId, jobId);
    if (job.status === "done") refresh(catalogId);
    return job;
  });
}
