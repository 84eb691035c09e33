import { GENERIC_REQUEST_WORDS, SYNONYMS, TOPICS } from "./lexicon";
import { isStopword, splitWords, stem } from "./tokenise";

/** Related stems of each stem, with the strength of the relation (0..1]. */
export type RelatedTerms = ReadonlyMap<string, ReadonlyMap<string, number>>;

export interface ExpansionStrengths {
  synonym: number;
  topic: number;
}

/**
 * Turns the lexicon's word groups into a stem → related-stem map; where a pair is both synonyms
 * and topic neighbours, the stronger relation wins.
 */
export function buildRelatedTerms(strengths: ExpansionStrengths): RelatedTerms {
  const related = new Map<string, Map<string, number>>();
  const link = (groups: readonly string[], strength: number): void => {
    for (const group of groups) {
      const stems = [...new Set(splitWords(group).filter((word) => !isStopword(word)).map(stem))];
      for (const from of stems) {
        let targets = related.get(from);
        if (!targets) related.set(from, (targets = new Map()));
        for (const to of stems) {
          if (to !== from && (targets.get(to) ?? 0) < strength) targets.set(to, strength);
        }
      }
    }
  };
  link(TOPICS, strengths.topic);
  link(SYNONYMS, strengths.synonym);
  return related;
}

/** Every word the lexicon knows: also used to split run-together tool names into words. */
export function lexiconWords(): string[] {
  return [...SYNONYMS, ...TOPICS].flatMap((group) => splitWords(group));
}

/** Stems of the words that occur in requests for almost any tool. */
export function genericRequestStems(): Set<string> {
  return new Set(GENERIC_REQUEST_WORDS.map(stem));
}
