import type { ConversationMessage, RankedTool, SelectorCandidate, ToolRanker } from "../types";
import { accumulate, buildPostings, inverseDocumentFrequency, type Postings } from "./postings";
import { isFunctionWord, splitWords } from "./tokenise";
import { selectTopK } from "./topK";

const K1 = 1.2;
const B = 0.75;

function contentWords(text: string): string[] {
  return splitWords(text).filter((word) => !isFunctionWord(word));
}

/** What plain BM25 reads of a tool: name and description, and with `parameters` the parameters' names and text too. */
function documentText(candidate: SelectorCandidate, parameters: boolean): string {
  const text = `${candidate.name} ${candidate.description ?? candidate.summary}`;
  return parameters ? `${text} ${(candidate.parameterNames ?? []).join(" ")} ${candidate.parameterText ?? ""}` : text;
}

/**
 * Plain Okapi BM25 over name + description (and, as a second baseline, parameter text): the floor
 * a selector must clear. Names are split into words, English function words are dropped,
 * nothing is stemmed or expanded, and the distinct words of the latest user message are the query.
 */
export class BM25 implements ToolRanker {
  private readonly names: string[];
  private readonly postings: Postings;

  constructor(candidates: readonly SelectorCandidate[], options: { parameters?: boolean } = {}) {
    this.names = candidates.map((candidate) => candidate.name);
    const termCounts = candidates.map((candidate) => {
      const counts = new Map<string, number>();
      const words = contentWords(documentText(candidate, options.parameters ?? false));
      for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
      return { counts, length: words.length };
    });
    const averageLength = termCounts.reduce((sum, doc) => sum + doc.length, 0) / Math.max(1, termCounts.length);
    this.postings = buildPostings(
      termCounts.map((doc) => doc.counts),
      (termFrequency, doc, documentFrequency) => {
        const lengthNorm = 1 - B + (B * termCounts[doc].length) / averageLength;
        return (inverseDocumentFrequency(candidates.length, documentFrequency) * termFrequency * (K1 + 1)) / (termFrequency + K1 * lengthNorm);
      },
    );
  }

  get size(): number {
    return this.names.length;
  }

  rank(messages: ConversationMessage[], k: number): RankedTool[] {
    const latestUser = messages.findLast((message) => message.role === "user");
    if (!latestUser) return [];
    const queryWeights = new Map<number, number>();
    for (const word of new Set(contentWords(latestUser.content))) {
      const termId = this.postings.termIds.get(word);
      if (termId !== undefined) queryWeights.set(termId, 1);
    }
    const { scores, touched, touchedCount } = accumulate(this.postings, queryWeights, this.names.length);
    return selectTopK(scores, touched, touchedCount, this.names, k).map((doc) => ({
      name: this.names[doc],
      score: scores[doc],
    }));
  }
}
