import type { PoisoningFinding, PoisoningSubject } from "./poisoning";
import { schemaTexts } from "./schema-texts";

// How a reviewer reads a poisoning finding (lib/tools/poisoning.ts): the flagged passage in its field, in context.

/** A finding's text in context, as a reviewer reads it: invisible characters shown as ⟨U+…⟩, long stretches cut in the middle. */
export interface FindingExcerpt {
  before: string;
  flagged: string;
  after: string;
}

const EXCERPT_CONTEXT = 60;
const EXCERPT_FLAGGED = 400;
const INVISIBLE = /[\u200b-\u200f\u2060-\u2064\ufeff\u180e\u202a-\u202e\u2066-\u2069\u{e0000}-\u{e007f}]/gu;

const shown = (text: string) => text.replace(INVISIBLE, (character) => `⟨U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}⟩`);

function cut(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit / 2)} … ${text.slice(-limit / 2)}`;
}

/** The field's text a finding points into: the description, the summary, the title, or a string of a schema by its path. */
export function fieldText(tool: PoisoningSubject, field: string): string {
  if (field === "description") return tool.description;
  if (field === "summary") return tool.summary ?? "";
  if (field === "title") return String(tool.meta?.title ?? tool.meta?.annotations?.title ?? "");
  const schema = field.startsWith("output") ? schemaTexts(tool.meta?.outputSchema, "output") : schemaTexts(tool.inputSchema);
  return schema.find((parameter) => parameter.field === field)?.text ?? "";
}

export function findingExcerpt(text: string, finding: Pick<PoisoningFinding, "start" | "end">): FindingExcerpt {
  const before = text.slice(Math.max(0, finding.start - EXCERPT_CONTEXT), finding.start);
  return {
    before: `${finding.start > EXCERPT_CONTEXT ? "…" : ""}${shown(before)}`,
    flagged: cut(shown(text.slice(finding.start, finding.end)), EXCERPT_FLAGGED),
    after: `${shown(text.slice(finding.end, finding.end + EXCERPT_CONTEXT))}${finding.end + EXCERPT_CONTEXT < text.length ? "…" : ""}`,
  };
}
