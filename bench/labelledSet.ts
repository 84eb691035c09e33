import { readFileSync } from "node:fs";
import { z } from "zod";
import { toCandidates } from "../lib/selection/candidates";
import type { SelectorCandidate } from "../lib/selection/types";
import { EMPTY_INPUT_SCHEMA, summarize } from "../lib/tools/validate";
import type { InputSchema } from "../lib/tools/types";

/** The labelled tool-selection format described in bench/data/README.md. */
const labelledSetSchema = z.object({
  source: z.string().optional(),
  license: z.string().optional(),
  notes: z.string().optional(),
  tools: z.array(
    z.object({
      name: z.string(),
      description: z.string(),
      parameters: z.record(z.string(), z.unknown()).nullable().optional(),
    }),
  ),
  cases: z.array(z.object({ id: z.string(), query: z.string(), expected: z.array(z.string()).min(1) })),
});

export type LabelledSet = z.infer<typeof labelledSetSchema>;
export type LabelledCase = LabelledSet["cases"][number];

export const DEFAULT_LABELLED_SET = new URL("./data/metatool_selection.json", import.meta.url);

export function loadLabelledSet(path: string | URL = DEFAULT_LABELLED_SET): LabelledSet {
  return labelledSetSchema.parse(JSON.parse(readFileSync(path, "utf8")));
}

/**
 * The set's tools as the API's preselection sees them once imported: the summary cut from the
 * description as an import does, the parameters from the JSON Schema, made by the same toCandidates.
 */
export function candidatesOf(set: LabelledSet): SelectorCandidate[] {
  return toCandidates(
    set.tools.map((tool) => ({
      name: tool.name,
      summary: summarize(tool.description),
      description: tool.description,
      tags: [],
      inputSchema: (tool.parameters as InputSchema | null | undefined) ?? EMPTY_INPUT_SCHEMA,
    })),
  );
}

/** Development half (even positions) and held-out half (odd positions) of the cases. */
export function splitByParity(cases: readonly LabelledCase[]): { development: LabelledCase[]; heldOut: LabelledCase[] } {
  return {
    development: cases.filter((_, index) => index % 2 === 0),
    heldOut: cases.filter((_, index) => index % 2 === 1),
  };
}
