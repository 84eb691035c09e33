import "server-only";
import type { Db } from "@/db/client";
import { notFound } from "@/lib/errors";
import type { CatalogState } from "@/lib/pipeline/tool-list";
import { type CatalogNorms, catalogNorms, fieldText, findingExcerpt, poisoningFindings } from "@/lib/tools/poisoning";
import type { Tool } from "@/lib/tools/types";
import { catalogState } from "./sources";

// A catalog's norms change only with its tools: worked out once per catalog state (one per revision).
const normsByState = new WeakMap<CatalogState, CatalogNorms>();

function normsOf(state: CatalogState): CatalogNorms {
  let norms = normsByState.get(state);
  if (norms === undefined) {
    norms = catalogNorms(state.tools);
    normsByState.set(state, norms);
  }
  return norms;
}

/** The poisoning findings of a tool of the catalog; none for built-ins, which are this product's own text. */
export function findingsOf(state: CatalogState, tool: Tool) {
  return tool.source === "builtin" ? [] : poisoningFindings(tool, normsOf(state));
}

/** A tool's findings, each with its excerpt for the tool's page (GET …/tools/{name}/findings). */
export async function toolFindings(db: Db, catalogId: string, name: string) {
  const state = await catalogState(db, catalogId);
  const tool = state.tools.find((candidate) => candidate.name === name);
  if (!tool) throw notFound(`Tool "${name}" in catalog "${catalogId}"`, "name");
  return findingsOf(state, tool).map((finding) => ({ ...finding, excerpt: findingExcerpt(fieldText(tool, finding.field), finding) }));
}
