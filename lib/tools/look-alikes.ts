import confusables from "unhomoglyph/data.json" with { type: "json" };

/**
 * Text as a person reads it, for the poisoning checks: letters of other scripts that look like Latin
 * ones ("іgnore" with a Cyrillic і, "𝐢𝐠𝐧𝐨𝐫𝐞", "ｉｇｎｏｒｅ") read as those Latin letters, and
 * invisible characters that split a word to dodge a pattern ("ig\u00adnore") read as nothing. The
 * mapping is Unicode's confusables table (through the unhomoglyph package), kept to the characters
 * that look like one ASCII letter; ASCII itself is never changed.
 */

const CONFUSABLES = confusables as Record<string, string>;

/** Characters that show as nothing: format characters (soft hyphen, zero-width, bidi, tags), variation selectors, the grapheme joiner, Hangul fillers. */
const INVISIBLE = /^(?:\p{Cf}|\p{Variation_Selector}|\u034f|\u115f|\u1160|\u3164|\uffa0)$/u;
const ASCII_LETTER = /^[A-Za-z]$/;
const ALL_ASCII = /^\p{ASCII}*$/u;

/** The ASCII letter a character reads as, "" for one that shows as nothing, or undefined: it reads as itself. */
function readsAs(character: string): string | undefined {
  if (INVISIBLE.test(character)) return "";
  const mapped = CONFUSABLES[character];
  if (mapped !== undefined && ASCII_LETTER.test(mapped)) return mapped;
  const compatible = character.normalize("NFKC");
  return ASCII_LETTER.test(compatible) ? compatible : undefined;
}

export interface ReadText {
  /** The text as read. */
  text: string;
  /** For each index of `text`, and one past its end, the index of the original text it comes from; undefined when they are the same. */
  origins?: number[];
}

/** The text as read (see the file's comment), with where each of its characters comes from; the same text when it is all ASCII. */
export function asRead(original: string): ReadText {
  // Nearly every description is ASCII: no copy, no map.
  if (ALL_ASCII.test(original)) return { text: original };
  let text = "";
  const origins: number[] = [];
  let at = 0;
  for (const character of original) {
    const read = character.charCodeAt(0) < 0x80 ? undefined : readsAs(character);
    const kept = read ?? character;
    for (let index = 0; index < kept.length; index++) origins.push(at);
    text += kept;
    at += character.length;
  }
  origins.push(at);
  return { text, origins };
}

/**
 * Words that mix Latin letters with letters of another script that look like Latin ones ("pаypal"
 * with a Cyrillic а): [start, end) spans of the original. A word wholly in one script (Russian,
 * Greek, Turkish with its dotless ı) is writing, not disguise.
 */
export function disguisedWords(original: string): { start: number; end: number }[] {
  const spans: { start: number; end: number }[] = [];
  if (ALL_ASCII.test(original)) return spans;
  for (const match of original.matchAll(/[\p{L}\p{M}]+/gu)) {
    const word = match[0];
    if (!/\p{Script=Latin}/u.test(word)) continue;
    const lookAlike = [...word].some(
      (character) => !/\p{Script=Latin}/u.test(character) && /\p{L}/u.test(character) && ASCII_LETTER.test(CONFUSABLES[character] ?? ""),
    );
    if (lookAlike) spans.push({ start: match.index, end: match.index + word.length });
  }
  return spans;
}
