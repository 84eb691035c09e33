import { z } from "zod";
import { type EvaluationForm, evaluationFormSchema } from "./evaluation-form";

/**
 * What the Evaluate page keeps in the browser per catalog, so a revisit finds it as it was left:
 * the cases and settings as typed (runs keep only the cases sent) and the run last shown.
 */
const storedDraft = z.object({ form: evaluationFormSchema, runId: z.string().min(1).max(100).optional() });

export type EvaluationDraft = z.infer<typeof storedDraft>;

const draftKey = (catalogId: string) => `toolshed.evaluate.${catalogId}`;

/** The draft kept for a catalog; none when nothing is kept, storage is refused, or what is kept is not a draft (an older shape). */
export function loadDraft(storage: Pick<Storage, "getItem"> | undefined, catalogId: string): EvaluationDraft | undefined {
  try {
    const text = storage?.getItem(draftKey(catalogId));
    if (!text) return undefined;
    const parsed = storedDraft.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps the draft; a browser that refuses (private mode, a full quota) only loses it on revisit. */
export function saveDraft(storage: Pick<Storage, "setItem"> | undefined, catalogId: string, draft: { form: EvaluationForm; runId?: string }): void {
  try {
    storage?.setItem(draftKey(catalogId), JSON.stringify(draft));
  } catch {
    // Nothing to do: the page works on without it.
  }
}

/** The browser's local storage, where there is one (not while rendering on the server, nor where it is refused). */
export function browserStorage(): Storage | undefined {
  try {
    return typeof window === "undefined" ? undefined : window.localStorage;
  } catch {
    return undefined;
  }
}
