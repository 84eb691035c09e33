import { z } from "zod";
import { evaluationBody } from "@/lib/api-schemas";
import { type LabelledCase, MAX_SET_NAME_CHARS } from "@/lib/evaluation/cases";

/**
 * The evaluation page's form: the cases as typed (the expected tools comma-separated, `caseId` as
 * a labelled set names the case) and the run's settings. The cases' own rules are checked by the
 * server (checkCasesAction), whose problems show above the cases.
 */
export const evaluationFormSchema = z.object({
  cases: z.array(z.object({ caseId: z.string().optional(), query: z.string(), expected: z.string() })),
  name: z.string().max(MAX_SET_NAME_CHARS),
  selector: z.string().min(1),
  k: evaluationBody.shape.k.unwrap(),
  /** With what the catalog learned from use (the local selector only); drafts kept before it have none. */
  learning: z.boolean().optional(),
});

export type EvaluationForm = z.infer<typeof evaluationFormSchema>;
export type DraftCase = EvaluationForm["cases"][number];

export function draftOf(labelled: LabelledCase = { query: "", expected: [] }): DraftCase {
  return { ...(labelled.id === undefined ? {} : { caseId: labelled.id }), query: labelled.query, expected: labelled.expected.join(", ") };
}

/** The cases a run sends: the rows with a request or a tool, trimmed. */
export function casesOf(drafts: readonly DraftCase[]): LabelledCase[] {
  return sentCases(drafts).map(({ labelled }) => labelled);
}

/** The row of each case casesOf sends (empty rows are not sent, so a case's position is not its row's). */
export function rowsOf(drafts: readonly DraftCase[]): number[] {
  return sentCases(drafts).map(({ row }) => row);
}

function sentCases(drafts: readonly DraftCase[]): { labelled: LabelledCase; row: number }[] {
  return drafts
    .map((draft, row) => {
      const expected = draft.expected
        .split(",")
        .map((name) => name.trim())
        .filter(Boolean);
      return { labelled: { ...(draft.caseId === undefined ? {} : { id: draft.caseId }), query: draft.query.trim(), expected }, row };
    })
    .filter(({ labelled }) => labelled.query || labelled.expected.length > 0);
}

/** The body that starts a run; an empty set name is left to the server's default. */
export function runBody(form: EvaluationForm) {
  return { cases: casesOf(form.cases), k: form.k, selector: form.selector, name: form.name.trim() || undefined, learning: form.learning || undefined };
}
