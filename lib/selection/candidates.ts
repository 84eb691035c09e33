import { patchedArray, type ToolEdit, toolEdits } from "../pipeline/tool-edits";
import { sameTags } from "../tools/bulk";
import { Lru } from "../tools/lru";
import type { FinalTool } from "../pipeline/types";
import { derivedFromFrozen } from "../tools/frozen";
import type { InputSchema, Tool } from "../tools/types";
import type { SelectionCorpus } from "./selector";
import type { SelectorCandidate } from "./types";

/** What a candidate is made of: a visible tool, or a catalog tool for a corpus. */
type CandidateSource = Pick<FinalTool, "name" | "summary" | "description" | "tags" | "inputSchema">;

const PARAMETER_TEXT_DEPTH = 3;

/** Descriptions, titles and enum values of a schema's properties, nested ones included (to a few levels). */
export function parameterTextOf(schema: InputSchema): string {
  const parts: string[] = [];
  const visit = (node: unknown, depth: number): void => {
    if (node === null || typeof node !== "object" || depth > PARAMETER_TEXT_DEPTH) return;
    const { description, title, enum: values, properties, items } = node as Record<string, unknown>;
    if (typeof title === "string") parts.push(title);
    if (typeof description === "string") parts.push(description);
    if (Array.isArray(values)) for (const value of values) if (typeof value === "string") parts.push(value);
    if (properties !== null && typeof properties === "object") {
      for (const [name, property] of Object.entries(properties)) {
        if (depth > 0) parts.push(name);
        visit(property, depth + 1);
      }
    }
    visit(items, depth + 1);
  };
  visit(schema, 0);
  return parts.join(" ");
}

function toCandidate(tool: CandidateSource): SelectorCandidate {
  return {
    name: tool.name,
    summary: tool.summary,
    description: tool.description,
    tags: tool.tags,
    parameterNames: Object.keys(tool.inputSchema.properties ?? {}),
    parameterText: parameterTextOf(tool.inputSchema),
  };
}

// A frozen tool (a cached catalog state's, or a final definition made from one) always yields the
// same candidate: made once, shared by every candidate set and the catalog's corpus. A catalog tool
// and its final definitions are other objects with, mostly, the same text and schema object: they
// share one candidate too (at 50,000 tools a second set of candidates held ≈ 14 MB).
const candidateOf = new WeakMap<CandidateSource, SelectorCandidate>();
const candidateOfSchema = new WeakMap<InputSchema, SelectorCandidate>();

function sharedCandidate(tool: CandidateSource): SelectorCandidate {
  const twin = candidateOfSchema.get(tool.inputSchema);
  if (
    twin !== undefined &&
    twin.name === tool.name &&
    twin.summary === tool.summary &&
    twin.description === tool.description &&
    (twin.tags === tool.tags || (twin.tags !== undefined && tool.tags !== undefined && sameTags(twin.tags, tool.tags)))
  ) {
    return twin;
  }
  const candidate = Object.freeze(toCandidate(tool));
  candidateOfSchema.set(tool.inputSchema, candidate);
  return candidate;
}

/** What a selector may know of visible tools: names and text, never the schemas themselves. */
export function toCandidates(tools: readonly CandidateSource[]): SelectorCandidate[] {
  return tools.map((tool) => (Object.isFrozen(tool) ? derivedFromFrozen(candidateOf, tool, sharedCandidate) : toCandidate(tool)));
}

/** How a frozen candidate array was made from an earlier one: by these edits of the earlier's candidates. */
export interface CandidateLineage {
  earlier: readonly SelectorCandidate[];
  edits: readonly ToolEdit<SelectorCandidate>[];
}

// The earlier array is held weakly: a line of revisions keeps no more than its caller does.
const lineages = new WeakMap<readonly SelectorCandidate[], { earlier: WeakRef<readonly SelectorCandidate[]>; edits: readonly ToolEdit<SelectorCandidate>[] }>();

/**
 * The candidates of `earlier`'s tools with the edits applied (only the inserted tools' made), frozen,
 * and remembered as made from it (`candidateLineageOf`): a selector's index matches them to its
 * documents from the earlier's matching, at the cost of the edits.
 */
export function patchedCandidates(earlier: readonly SelectorCandidate[], edits: readonly ToolEdit<CandidateSource>[]): readonly SelectorCandidate[] {
  const candidateEdits = edits.map(({ from, removed, inserted }) => ({ from, removed, inserted: toCandidates(inserted) }));
  const candidates = Object.freeze(
    patchedArray(
      earlier,
      candidateEdits,
      candidateEdits.map((edit) => edit.inserted),
    ),
  );
  lineages.set(candidates, { earlier: new WeakRef(earlier), edits: candidateEdits });
  return candidates;
}

/** The array `candidates` was made from by `patchedCandidates`, while it lives, and the edits. */
export function candidateLineageOf(candidates: readonly SelectorCandidate[]): CandidateLineage | undefined {
  const lineage = lineages.get(candidates);
  const earlier = lineage?.earlier.deref();
  return earlier && { earlier, edits: lineage!.edits };
}

// A number per tool array: the app shares one frozen array per catalog revision and local
// sources, so the corpus key (and the local selector's index over it) lasts as long as it does.
const arrayNumbers = new WeakMap<readonly Tool[], number>();
let nextArrayNumber = 1;
// Per frozen tool array, its candidates; per catalog, the latest, which the next revision's are patched from.
const corpusCandidates = new WeakMap<readonly Tool[], readonly SelectorCandidate[]>();
const latestCorpus = new Lru<string, { tools: readonly Tool[]; candidates: readonly SelectorCandidate[] }>({ maxEntries: 16 });

/** A frozen tool array's candidates, made from the catalog's latest when few tools changed: a revision costs its edits. */
function candidatesOfCatalog(catalogId: string, tools: readonly Tool[]): readonly SelectorCandidate[] {
  if (!Object.isFrozen(tools)) return toCandidates(tools);
  let candidates = corpusCandidates.get(tools);
  if (candidates === undefined) {
    const earlier = latestCorpus.get(catalogId);
    const edits = earlier && toolEdits(earlier.tools, tools, tools.length / 4);
    candidates = edits ? patchedCandidates(earlier!.candidates, edits) : Object.freeze(toCandidates(tools));
    corpusCandidates.set(tools, candidates);
    latestCorpus.set(catalogId, { tools, candidates });
  }
  return candidates;
}

/**
 * Every tool of the catalog as a selection corpus, keyed by catalog, revision and the tool array
 * itself: a selector indexes the catalog once and ranks each model's and agent's candidates in
 * it. The key never outlives the tools it stands for; were the array changed in place, the local
 * selector would still rank the candidates by their own text (see LocalIndex.rankAmong).
 */
export function catalogCorpus(catalogId: string, revision: number, tools: readonly Tool[]): SelectionCorpus {
  let number = arrayNumbers.get(tools);
  if (number === undefined) {
    number = nextArrayNumber++;
    arrayNumbers.set(tools, number);
  }
  return { key: `${catalogId}@${revision}#${number}`, candidates: () => candidatesOfCatalog(catalogId, tools), lineage: catalogId };
}
