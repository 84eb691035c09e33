import "server-only";
import type { Db } from "@/db/client";
import { notFound } from "@/lib/errors";
import type { CatalogState } from "@/lib/pipeline/tool-list";
import { toolsByNameOf } from "@/lib/selection/verify";
import { fieldText, findingExcerpt } from "@/lib/tools/finding-excerpt";
import { type CatalogNorms, catalogNorms, type FlaggedSelection, flaggedOf, type PoisoningFinding, poisoningFindings } from "@/lib/tools/poisoning";
import { Lru } from "@/lib/tools/lru";
import type { Tool } from "@/lib/tools/types";
import { catalogState } from "./catalog-states";

// A catalog's norms change only with its tools: worked out once per catalog state (one per
// revision), from the catalog's latest norms, whose set of names a revision mostly keeps.
const normsByState = new WeakMap<CatalogState, CatalogNorms>();
const latestNorms = new Lru<string, { tools: readonly Tool[]; norms: CatalogNorms }>({ maxEntries: 16 });

function normsOf(state: CatalogState): CatalogNorms {
  let norms = normsByState.get(state);
  if (norms === undefined) {
    norms = catalogNorms(state.tools, latestNorms.get(state.catalogId));
    normsByState.set(state, norms);
    latestNorms.set(state.catalogId, { tools: state.tools, norms });
  }
  return norms;
}

// A state's tools are frozen: their findings are worked out once, when a turn or the report first asks.
const findingsByTool = new WeakMap<Tool, PoisoningFinding[]>();

/** The poisoning findings of a tool of the catalog; none for built-ins, which are this product's own text. */
export function findingsOf(state: CatalogState, tool: Tool): PoisoningFinding[] {
  let findings = findingsByTool.get(tool);
  if (findings === undefined) {
    findings = tool.source === "builtin" ? [] : poisoningFindings(tool, normsOf(state));
    if (Object.isFrozen(tool)) findingsByTool.set(tool, findings);
  }
  return findings;
}

/** Of the tools a preselection or ToolSearch chose, those whose text has medium or high findings (offered because a person approved them, or custom). */
export function flaggedAmong(state: CatalogState, names: readonly string[]): FlaggedSelection[] {
  const byName = toolsByNameOf(state.tools);
  return names.flatMap((name) => {
    const tool = byName.get(name);
    return (tool && flaggedOf(name, findingsOf(state, tool))) || [];
  });
}

/** A tool's findings, each with its excerpt for the tool's page (GET …/tools/{name}/findings). */
export async function toolFindings(db: Db, catalogId: string, name: string) {
  const state = await catalogState(db, catalogId);
  const tool = toolsByNameOf(state.tools).get(name);
  if (!tool) throw notFound(`Tool "${name}" in catalog "${catalogId}"`, "name");
  return findingsOf(state, tool).map((finding) => ({ ...finding, excerpt: findingExcerpt(fieldText(tool, finding.field), finding) }));
}

/** Held-back definitions (db/queries/definition-reviews.ts), each with its current text's medium or high findings, or null. */
export async function withFindings<T extends { name: string }>(db: Db, catalogId: string, reviews: T[]): Promise<(T & { flagged: FlaggedSelection | null })[]> {
  if (reviews.length === 0) return [];
  const state = await catalogState(db, catalogId);
  return reviews.map((review) => ({ ...review, flagged: flaggedAmong(state, [review.name])[0] ?? null }));
}
