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
// same candidate: made once, shared by every candidate set and the catalog's corpus.
const candidateOf = new WeakMap<CandidateSource, SelectorCandidate>();

/** What a selector may know of visible tools: names and text, never the schemas themselves. */
export function toCandidates(tools: readonly CandidateSource[]): SelectorCandidate[] {
  return tools.map((tool) => derivedFromFrozen(candidateOf, tool, toCandidate));
}

// A number per tool array: the app shares one frozen array per catalog revision and local
// sources, so the corpus key (and the local selector's index over it) lasts as long as it does.
const arrayNumbers = new WeakMap<readonly Tool[], number>();
let nextArrayNumber = 1;

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
  return { key: `${catalogId}@${revision}#${number}`, candidates: () => toCandidates(tools), lineage: catalogId };
}
