import { isFunctionWord, isStopword, splitWords } from "./tokenise";

/** Sentence ends, semicolons and line breaks. */
const SENTENCE_BREAK = /(?<=[.!?;])\s+|\n+/u;
/**
 * The marker of an item in a list written on one line: "1)", "2.", "(3)", "a)", "(b)", followed by
 * a space and not part of a number or version ("v2.8.0", "3.5 GB").
 */
const ENUMERATION_MARKER = /(?:^|\s)\(?(?:\d{1,2}[.)]|[a-h]\))(?=\s)/giu;
/** An aside in parentheses, whose commas list details of one step ("(the black tee, size M)"), not steps. */
const PARENTHESIS = /\([^()]*\)/gu;
/** A bullet at the start of a line ("- ", "* ", "• ") or a numbered step ("step 2:", "step one,"). */
const LEADING_MARKER = /^\s*(?:[-*•·]\s+|step\s+(?:\d{1,2}|one|two|three|four|five|six)\s*[:.,)-]?\s+)/iu;
/**
 * Where one request turns to another task: "…, and then …", "also", "plus", "as well as",
 * "after that", "after which", "once that's done", a bare "and" between clauses, and the commas of
 * an enumeration.
 */
const CLAUSE_BREAK =
  /(\s*,\s*(?:and\s+then|and\s+also|and|then|also|plus)?\s+|\s+(?:and\s+then|and\s+also|then|also|plus|as\s+well\s+as|after\s+that|after\s+which|afterwards|and|(?:and\s+)?(?:once|when)\s+(?:that|this|it|they|those|these)(?:'s|\s+is|\s+are|\s+has|\s+have)?\s+(?:done|finished|complete|completed|through|back))\s+)/iu;
/**
 * The words that order the steps ("first", "next", "finally", "once that's done") at the start of
 * a part: they say when, not what, so a step's own query leaves them out.
 */
const STEP_WORDS =
  /^(?:(?:first\s+things\s+first|first(?:ly)?|second(?:ly)?|third(?:ly)?|to\s+start|start\s+by|next|then|finally|lastly|last(?:ly)?\s+of\s+all|after\s+that|after\s+which|afterwards|and|also|once\s+(?:that|this|it)(?:'s|\s+is|\s+has)?\s+(?:done|finished|complete|completed)|when\s+(?:that's|that\s+is|it's|it\s+is)?\s*done)\b[\s,:]*)+/iu;

/** Words that open a new step where they join two parts ("then", "next", "after that", "once it's done"). */
const STEP_OPENER = /\b(?:then|next|finally|lastly|after|afterwards|once|when|first(?:ly)?|second(?:ly)?|third(?:ly)?|start|step)\b/iu;

/**
 * A part with fewer content words than this is a fragment ("and Joe"), kept with the part before
 * it, unless a list marker or a step word opened it ("next, get the elevation").
 */
const MIN_CONTENT_WORDS = 2;

function contentWordCount(text: string): number {
  return splitWords(text).filter((word) => !isStopword(word)).length;
}

/**
 * A short step on its own: one content word acting on a pronoun ("ack it", "reboot them", "merge
 * that"), which is a task, unlike a lone name or noun ("and Joe", "and pears").
 */
function isVerbOnPronoun(text: string): boolean {
  const words = splitWords(text);
  return words.length >= 2 && contentWordCount(text) === 1 && !isStopword(words[0]) && words.slice(1).every(isFunctionWord);
}

/** The lines or sentences of the text, each item of a numbered or lettered list apart, on one line or several. */
function sentencesOf(text: string): string[] {
  return text
    .replace(ENUMERATION_MARKER, "\n• ")
    .replace(PARENTHESIS, (aside) => aside.replace(/[,;]/gu, " "))
    .split(SENTENCE_BREAK);
}

/**
 * The separate tasks of one request ("file the bug, then tell #mobile on Slack" → two), each
 * with enough words to be searched on its own, without the list markers and step words ("1.",
 * "first", "finally") that only order them. A request with one task gives one intent.
 */
export function splitIntents(text: string): string[] {
  const intents: string[] = [];
  for (const sentence of sentencesOf(text)) {
    const listItem = LEADING_MARKER.test(sentence);
    // With its capturing group, the split alternates parts and the breaks between them.
    const pieces = sentence.replace(LEADING_MARKER, "").split(CLAUSE_BREAK);
    for (let index = 0; index < pieces.length; index += 2) {
      const clause = pieces[index].trim();
      const opener = index === 0 ? listItem : STEP_OPENER.test(pieces[index - 1]);
      const stepWords = STEP_WORDS.exec(clause)?.[0] ?? "";
      const part = clause.slice(stepWords.length).trim();
      if (part.length === 0 || /^[\p{P}\s]*$/u.test(part)) continue;
      const words = contentWordCount(part);
      const step = words >= MIN_CONTENT_WORDS || isVerbOnPronoun(part) || (words > 0 && (opener || STEP_OPENER.test(stepWords)));
      if (intents.length > 0 && !step) intents[intents.length - 1] += ` ${part}`;
      else intents.push(part);
    }
  }
  // A leading fragment ("Hi," "so,") joins the first real intent.
  if (intents.length > 1 && contentWordCount(intents[0]) < MIN_CONTENT_WORDS) intents.splice(0, 2, `${intents[0]} ${intents[1]}`);
  return intents;
}
