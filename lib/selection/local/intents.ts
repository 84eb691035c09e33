import { isStopword, splitWords } from "./tokenise";

/** Sentence ends and line breaks. */
const SENTENCE_BREAK = /(?<=[.!?;])\s+|\n+/u;
/**
 * Where one request turns to another task: "…, and then …", "also", "plus", "as well as",
 * "after that", a bare "and" between clauses, and the commas of an enumeration.
 */
const CLAUSE_BREAK =
  /\s*,\s*(?:and\s+then|and\s+also|and|then|also|plus)?\s+|\s+(?:and\s+then|and\s+also|then|also|plus|as\s+well\s+as|after\s+that|afterwards|and)\s+/iu;

/** A part with fewer content words than this is a fragment ("and Joe"), kept with the part before it. */
const MIN_CONTENT_WORDS = 2;

function contentWordCount(text: string): number {
  return splitWords(text).filter((word) => !isStopword(word)).length;
}

/**
 * The separate tasks of one request ("file the bug, then tell #mobile on Slack" → two), each
 * with enough words to be searched on its own. A request with one task gives one intent.
 */
export function splitIntents(text: string): string[] {
  const intents: string[] = [];
  for (const sentence of text.split(SENTENCE_BREAK)) {
    for (const clause of sentence.split(CLAUSE_BREAK)) {
      const part = clause.trim();
      if (part.length === 0) continue;
      if (intents.length > 0 && contentWordCount(part) < MIN_CONTENT_WORDS) intents[intents.length - 1] += ` ${part}`;
      else intents.push(part);
    }
  }
  // A leading fragment ("Hi," "so,") joins the first real intent.
  if (intents.length > 1 && contentWordCount(intents[0]) < MIN_CONTENT_WORDS) intents.splice(0, 2, `${intents[0]} ${intents[1]}`);
  return intents;
}
