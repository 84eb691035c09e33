import { z } from "zod";
import { safeName, safeText } from "../safe-text";

/** Limits of one evaluation run: every case is a selector call, and an LLM selector's call is slow and paid for. */
export const MAX_EVALUATION_CASES = 2_000;
const MAX_QUERY_CHARS = 2_000;
const MAX_EXPECTED_TOOLS = 20;
export const MAX_SET_NAME_CHARS = 100;

/** One labelled case: a request and the tools it needs (`id` as a labelled set names it, if it does). */
const evaluationCaseSchema = z.strictObject({
  id: safeName().max(200).optional(),
  query: safeText().trim().min(1, "Write the request.").max(MAX_QUERY_CHARS),
  expected: z.array(safeName().trim().min(1).max(64)).min(1, "Name at least one tool the request needs.").max(MAX_EXPECTED_TOOLS),
});

export type LabelledCase = z.infer<typeof evaluationCaseSchema>;

export const evaluationCasesSchema = z
  .array(evaluationCaseSchema)
  .min(1, "Give at least one case.")
  .max(MAX_EVALUATION_CASES, `At most ${MAX_EVALUATION_CASES.toLocaleString("en")} cases per run.`);

/**
 * A labelled set as bench/data keeps them: `{ tools?, cases: [{ id?, query, expected }] }`. Its
 * tools are not read (the catalog's own are what is evaluated); other fields are ignored.
 */
const labelledSetFileSchema = z.object({
  cases: z.array(z.object({ id: z.union([z.string(), z.number()]).optional(), query: z.string(), expected: z.array(z.string()) })),
});

/** The cases of a labelled set file, in the shape the API takes (ids as text). */
export function casesOfLabelledSet(document: unknown): LabelledCase[] {
  const parsed = labelledSetFileSchema.parse(document);
  return parsed.cases.map(({ id, query, expected }) => ({ ...(id === undefined ? {} : { id: String(id) }), query, expected }));
}

export interface UnknownNames {
  /** The case's position in the set. */
  index: number;
  id?: string;
  names: string[];
}

/** The cases that expect tools the catalog does not have, and which names those are. */
export function casesNamingUnknownTools(cases: readonly Pick<LabelledCase, "id" | "expected">[], isTool: (name: string) => boolean): UnknownNames[] {
  const found: UnknownNames[] = [];
  cases.forEach((labelled, index) => {
    const names = labelled.expected.filter((name) => !isTool(name));
    if (names.length > 0) found.push({ index, ...(labelled.id === undefined ? {} : { id: labelled.id }), names });
  });
  return found;
}
