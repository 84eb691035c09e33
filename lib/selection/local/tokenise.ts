import { stemmer } from "stemmer";

/** English function words: they occur everywhere and would only add noise to a score. */
const FUNCTION_WORDS = new Set(
  (
    "a about above after again against all am an and any are as at be because been before being below " +
    "between both but by can cannot could did do does doing done down during each else etc ever every few " +
    "for from further had has have having he her here hers herself him himself his how i if in into is it " +
    "its itself just me might mine more most much must my myself no nor not now of off on once only or other " +
    "ought our ours ourselves out over own same shall she should so some such than that the their theirs " +
    "them themselves then there these they this those through to too under until up upon us very was we " +
    "were what whatever when where whether which while who whom whose why will with within without would " +
    "yes yet you your yours yourself yourselves"
  ).split(" "),
);

/** The filler people wrap tool requests in ("can you please help me find…"). */
const REQUEST_FILLER = new Set(
  (
    "please kindly want wanted wants need needs let lets tell know like hi hey hello thanks thank also able " +
    "help assist provide get gets getting give someone something really quite rather using use via"
  ).split(" "),
);

/**
 * Words that appear in requests for almost any tool ("find me the best…", "show the latest…").
 * They still count, but less than the words that say what the request is about.
 */
const GENERIC_REQUEST_WORDS =
  "find search look looking show list tell recommend recommendation recommendations suggest suggestion " +
  "suggestions information info details detail specific current currently latest recent recently new best " +
  "top good great popular way ways today make create check see go going trying try guide option options " +
  "question questions answer answers thing things lot lots many various different kind type types";

let genericRequestStems: ReadonlySet<string> | undefined;

export function isGenericRequestStem(term: string): boolean {
  genericRequestStems ??= new Set(GENERIC_REQUEST_WORDS.split(" ").map(stem));
  return genericRequestStems.has(term);
}

/**
 * Splits identifiers and prose into lowercase words: camelCase, PascalCase runs (`HTTPServer`),
 * snake_case, kebab-case, dotted names and letter/digit boundaries (`s3Bucket`, `v2`).
 */
export function splitWords(text: string): string[] {
  return NON_ASCII.test(text) ? splitUnicodeWords(text) : splitAsciiWords(text);
}

/** Any UTF-16 unit past ASCII, surrogates of characters past the BMP included. */
const NON_ASCII = /[\u0080-\uffff]/;

function splitUnicodeWords(text: string): string[] {
  const separated = text
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, "$1 $2")
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, "$1 $2")
    .replace(/(\p{L})(\p{N})/gu, "$1 $2")
    .replace(/(\p{N})(\p{L})/gu, "$1 $2")
    .toLowerCase();
  return separated.match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * The words of ASCII text as `splitUnicodeWords` finds them, in one pass of one expression: a run
 * of capitals not followed by a small letter (`HTTP` of `HTTPServer`), a word with at most one
 * capital in front, or digits. Most tool text is ASCII, and reading it is most of what indexing a
 * changed tool costs.
 */
const ASCII_WORD = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g;

function splitAsciiWords(text: string): string[] {
  return (text.match(ASCII_WORD) ?? []).map((word) => word.toLowerCase());
}

export function isFunctionWord(word: string): boolean {
  return FUNCTION_WORDS.has(word);
}

/** Function words and request filler: the words a selector ignores in queries and documents. */
export function isStopword(word: string): boolean {
  return FUNCTION_WORDS.has(word) || REQUEST_FILLER.has(word);
}

const stemCache = new Map<string, string>();

/** Porter stem, memoised because the same few thousand words recur across every query. */
export function stem(word: string): string {
  let stemmed = stemCache.get(word);
  if (stemmed === undefined) {
    stemmed = stemmer(word);
    if (stemCache.size < 200_000) stemCache.set(word, stemmed);
  }
  return stemmed;
}

/** Content words of a text, stemmed: what the index and the queries are made of. */
export function tokenise(text: string): string[] {
  const terms: string[] = [];
  for (const word of splitWords(text)) {
    if (!isStopword(word)) terms.push(stem(word));
  }
  return terms;
}

/** The words run-together words may be made of; only asked whether it holds a word. */
export interface WordSet {
  has(word: string): boolean;
}

/**
 * Splits a run-together word such as `airqualityforecast` into the known words it is made of,
 * choosing the split that covers the most letters with the fewest pieces. Returns [] when the
 * word is known itself or fewer than three quarters of its letters fall into known words.
 */
export function segmentCompound(word: string, vocabulary: WordSet, minimumPiece = 3): string[] {
  if (word.length < 2 * minimumPiece || vocabulary.has(word)) return [];
  // best[i]: the best split of word[0..i) as [covered letters, pieces, start of last piece, known?]
  const covered = new Int32Array(word.length + 1);
  const pieces = new Int32Array(word.length + 1);
  const lastStart = new Int32Array(word.length + 1);
  const lastKnown = new Uint8Array(word.length + 1);
  for (let end = 1; end <= word.length; end++) {
    // An unknown letter extends the split without covering anything.
    covered[end] = covered[end - 1];
    pieces[end] = pieces[end - 1] + 1;
    lastStart[end] = end - 1;
    lastKnown[end] = 0;
    for (let start = Math.max(0, end - 20); start <= end - minimumPiece; start++) {
      if (!vocabulary.has(word.slice(start, end))) continue;
      const candidateCovered = covered[start] + (end - start);
      const candidatePieces = pieces[start] + 1;
      if (candidateCovered > covered[end] || (candidateCovered === covered[end] && candidatePieces < pieces[end])) {
        covered[end] = candidateCovered;
        pieces[end] = candidatePieces;
        lastStart[end] = start;
        lastKnown[end] = 1;
      }
    }
  }
  if (covered[word.length] * 4 < word.length * 3) return [];
  const known: string[] = [];
  for (let end = word.length; end > 0; end = lastStart[end]) {
    if (lastKnown[end]) known.unshift(word.slice(lastStart[end], end));
  }
  return known.length >= 2 ? known : [];
}
