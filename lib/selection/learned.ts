import { isStopword, splitWords, stem } from "./local/tokenise";

/** One report of use: the words of a request (or of the part of it that asked for the tool) and the tool then used. */
export interface UseEvidence {
  tool: string;
  text: string;
  /** Who reported it (a principal key): one caller's weight per tool is capped. */
  caller: string;
  /** Milliseconds since the epoch. */
  at: number;
  /** 1 for a reported or observed use; more for a ToolSearch find that the preselection had missed. */
  strength: number;
}

export interface LearningSettings {
  /** After this long an event weighs half as much, after twice as long a quarter, and so on. */
  halfLifeMs: number;
  /** The most weight one caller's events give one tool, in events of strength 1. */
  callerCap: number;
  /** Evidence for a tool reaches half of full trust at this many reports. */
  trustReports: number;
  /** BM25's saturation and length normalisation over the learned words. */
  k1: number;
  b: number;
  /**
   * A request's best learned match counts fully once its BM25 score is this share of a perfect
   * match (every word of the request at full saturation); below, in proportion, so that a request
   * sharing one word with what was learned gets little from it.
   */
  fullMatch: number;
  /**
   * What a full, trusted learned match adds, relative to the best base score of the request, until
   * the catalog has enough reports to calibrate it (learned-calibration.ts).
   */
  weight: number;
}

export const DEFAULT_LEARNING: LearningSettings = {
  halfLifeMs: 30 * 24 * 3_600_000,
  callerCap: 20,
  trustReports: 1,
  k1: 1.2,
  b: 0.75,
  fullMatch: 0.2,
  weight: 1,
};

/** Reports older than six half-lives weigh under 2 % of a new one: retention deletes them. */
export const LEARNED_RETENTION_MS = 6 * DEFAULT_LEARNING.halfLifeMs;

/** The distinct content terms of a text, stemmed. */
function contentTerms(text: string): string[] {
  return [
    ...new Set(
      splitWords(text)
        .filter((word) => !isStopword(word))
        .map(stem),
    ),
  ];
}

/** Whether a text has a word to learn from: not only stopwords, punctuation or control characters ("yes, go ahead"). */
export const hasContentWords = (text: string): boolean => contentTerms(text).length > 0;

/** How many of the catalog's tools have a term in their own text, for the rarity of the words of a request. */
export interface CatalogFrequencies {
  documents: number;
  frequency: (term: string) => number;
}

interface ToolEvidence {
  /** term → decayed weight of the events that had it. */
  terms: Map<string, number>;
  /** Decayed weight × number of terms, summed over the events: the learned document's length. */
  length: number;
  /** Decayed weight of the events, each caller's capped. */
  weight: number;
  /** Events per caller, for the cap: caller → summed strength. */
  callers: Map<string, number>;
  /** A word as it was written, per term, for showing what was learned. */
  surface: Map<string, string>;
}

/** A tool's learned score for a request: its share of a perfect match, and the trust its evidence earns. */
export interface LearnedScore {
  share: number;
  trust: number;
}

/**
 * What a catalog learned from use: per tool, the words of the requests that led to it, as a
 * document of their own (never mixed into the tool's description), scored with BM25 against a new
 * request. Weights decay with age (decay is applied relative to `epoch`, so adding never rescales
 * what is there), one caller's events weigh at most `callerCap` per tool, and a tool reported for
 * many unrelated requests grows a long document whose every word weighs less.
 */
export class LearnedEvidence {
  private readonly tools = new Map<string, ToolEvidence>();
  /** term → number of tools whose learned words have it. */
  private readonly documentFrequency = new Map<string, number>();
  private totalLength = 0;
  /** Every event added, oldest first: calibration (learned-calibration.ts) replays them. */
  private readonly log: UseEvidence[] = [];

  constructor(
    private readonly settings: LearningSettings = DEFAULT_LEARNING,
    /** The instant weights are expressed at: events before it weigh less than 1, later ones more. */
    private readonly epoch = Date.now(),
  ) {}

  get size(): number {
    return this.log.length;
  }

  /** An independent copy, to add to without changing this one. */
  copy(): LearnedEvidence {
    const copy = new LearnedEvidence(this.settings, this.epoch);
    for (const [name, tool] of this.tools) {
      copy.tools.set(name, { ...tool, terms: new Map(tool.terms), callers: new Map(tool.callers), surface: new Map(tool.surface) });
    }
    for (const [term, frequency] of this.documentFrequency) copy.documentFrequency.set(term, frequency);
    copy.totalLength = this.totalLength;
    // One by one: a catalog keeps up to 200,000 reports, too many to spread into one call's arguments.
    for (const event of this.log) copy.log.push(event);
    return copy;
  }

  /** The events added, oldest first. */
  get events(): readonly UseEvidence[] {
    return this.log;
  }

  add(evidence: UseEvidence): void {
    const terms = contentTerms(evidence.text);
    if (terms.length === 0 || !(evidence.strength > 0)) return;
    let tool = this.tools.get(evidence.tool);
    if (tool === undefined) {
      tool = { terms: new Map(), length: 0, weight: 0, callers: new Map(), surface: new Map() };
      this.tools.set(evidence.tool, tool);
    }
    const fromCaller = tool.callers.get(evidence.caller) ?? 0;
    const strength = Math.min(evidence.strength, this.settings.callerCap - fromCaller);
    if (strength <= 0) return;
    tool.callers.set(evidence.caller, fromCaller + strength);
    const weight = strength * 2 ** ((evidence.at - this.epoch) / this.settings.halfLifeMs);
    for (const term of terms) {
      const before = tool.terms.get(term);
      if (before === undefined) this.documentFrequency.set(term, (this.documentFrequency.get(term) ?? 0) + 1);
      tool.terms.set(term, (before ?? 0) + weight);
    }
    for (const word of splitWords(evidence.text)) if (!isStopword(word) && !tool.surface.has(stem(word))) tool.surface.set(stem(word), word);
    tool.length += weight * terms.length;
    tool.weight += weight;
    this.totalLength += weight * terms.length;
    this.log.push(evidence);
  }

  /**
   * Each tool's learned score for a request, for the tools whose learned words share a term with
   * it: BM25 over the learned words, as a share of the request's best learned match (1 for it,
   * scaled down when that match is weak, see `fullMatch`), and the trust its reports earn. A word
   * is as rare as the rarer of the learned words and the catalog's own text (`catalog`) makes it;
   * `at` ages the evidence to the moment asked about.
   */
  scores(request: string, at = Date.now(), catalog?: CatalogFrequencies): Map<string, LearnedScore> {
    const scored = new Map<string, LearnedScore>();
    if (this.tools.size === 0) return scored;
    const terms = contentTerms(request);
    const { k1, b, trustReports } = this.settings;
    const toolCount = this.tools.size;
    // A word common in the catalog's own descriptions says little about which tool was meant, however rare among the learned words.
    const documents = Math.max(toolCount, catalog?.documents ?? 0);
    const idf = (term: string) => {
      const frequency = Math.max(this.documentFrequency.get(term) ?? 0, catalog?.frequency(term) ?? 0);
      return Math.log(1 + (documents - frequency + 0.5) / (frequency + 0.5));
    };
    let perfect = 0;
    for (const term of terms) perfect += idf(term) * (k1 + 1);
    if (perfect <= 0) return scored;
    const averageLength = this.totalLength / toolCount;
    const age = 2 ** ((this.epoch - at) / this.settings.halfLifeMs);
    for (const [name, tool] of this.tools) {
      let score = 0;
      const norm = k1 * (1 - b + (b * tool.length) / averageLength);
      for (const term of terms) {
        const frequency = tool.terms.get(term);
        if (frequency !== undefined) score += (idf(term) * frequency * (k1 + 1)) / (frequency + norm);
      }
      if (score <= 0) continue;
      // Reports count at their age: a tool reported often long ago earns less trust than one reported as often today.
      const reports = tool.weight * age;
      scored.set(name, { share: score / perfect, trust: reports / (reports + trustReports) });
    }
    // Relative to the request's best learned match, which counts fully once it covers `fullMatch` of a perfect one.
    let top = 0;
    for (const { share } of scored.values()) top = Math.max(top, share);
    const scale = Math.min(1, top / this.settings.fullMatch) / top;
    for (const entry of scored.values()) entry.share *= scale;
    return scored;
  }

  /** The words most telling of a tool in what was learned, with their weight now, and how many reports it has. */
  learnedOf(tool: string, limit = 20, at = Date.now()): { words: { word: string; weight: number }[]; reports: number } {
    const evidence = this.tools.get(tool);
    if (evidence === undefined) return { words: [], reports: 0 };
    const age = 2 ** ((this.epoch - at) / this.settings.halfLifeMs);
    const words = [...evidence.terms]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, limit)
      .map(([term, weight]) => ({ word: evidence.surface.get(term) ?? term, weight: weight * age }));
    return { words, reports: evidence.weight * age };
  }

  /** The tools with learned words. */
  get toolCount(): number {
    return this.tools.size;
  }
}
