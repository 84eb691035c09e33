import { tokenise } from "../selection/local/tokenise";

/** What the report reads of a tool. */
export interface QualityTool {
  name: string;
  summary: string;
}

export type FindingKind = "confusable" | "missing-summary" | "short-summary" | "vague-summary" | "never-chosen";

/** One thing to fix, naming the tools it concerns. */
export interface QualityFinding {
  kind: FindingKind;
  tools: string[];
  message: string;
  fix: string;
  /** Confusable pairs: the cosine similarity of their name + summary vectors (0–1). */
  similarity?: number;
}

/** Pairs at least this similar are reported: below it, the texts differ in words that carry weight. */
const CONFUSABLE_THRESHOLD = 0.8;

/** A summary with fewer content words than this (after function words) is too short to rank on. */
const MIN_SUMMARY_WORDS = 3;

/**
 * Words that say an action happens but not to what: a summary made only of these and the tool's
 * own name tells the ranker (and the model) nothing the name does not.
 */
const GENERIC_WORDS = new Set(
  tokenise(
    "tool tools function functions call calls perform performs run runs execute executes handle handles process processes manage manages " +
      "do does make makes operation operations action actions utility helper thing things stuff data item items information info " +
      "value values object objects result results request requests given specified specific various new simple basic generic task tasks work works",
  ),
);

interface Vector {
  /** Terms, rarest first. */
  terms: string[];
  weights: Map<string, number>;
}

/** The text the ranker reads first of a tool: its name (split into words) and its summary. */
function termsOf(tool: QualityTool): string[] {
  return tokenise(`${tool.name} ${tool.summary}`);
}

/** TF-IDF vectors of unit length: (1 + log tf) · log(1 + N / df). */
function tfidfVectors(tools: readonly QualityTool[]): Vector[] {
  const termLists = tools.map(termsOf);
  const documentFrequency = new Map<string, number>();
  for (const terms of termLists) for (const term of new Set(terms)) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  return termLists.map((terms) => {
    const counts = new Map<string, number>();
    for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
    const weights = new Map<string, number>();
    let norm = 0;
    for (const [term, count] of counts) {
      const weight = (1 + Math.log(count)) * Math.log(1 + tools.length / documentFrequency.get(term)!);
      weights.set(term, weight);
      norm += weight * weight;
    }
    // A text of function words alone has no terms, and no similarity to anything.
    norm = Math.sqrt(norm) || 1;
    for (const [term, weight] of weights) weights.set(term, weight / norm);
    const df = (term: string) => documentFrequency.get(term)!;
    return { terms: [...weights.keys()].sort((a, b) => df(a) - df(b) || (a < b ? -1 : 1)), weights };
  });
}

function dot(a: Vector, b: Vector): number {
  const [small, large] = a.weights.size <= b.weights.size ? [a, b] : [b, a];
  let sum = 0;
  for (const [term, weight] of small.weights) sum += weight * (large.weights.get(term) ?? 0);
  return sum;
}

/**
 * The terms of a vector to index so that no pair at or above `threshold` is missed: all but its
 * most common terms whose combined norm stays below the threshold. If x·y ≥ t, the part of y left
 * out contributes less than t (Cauchy–Schwarz, |x| = 1), so x shares a term with y's indexed part.
 */
function indexedPrefix(vector: Vector, threshold: number): string[] {
  let leftOut = 0;
  let end = vector.terms.length;
  while (end > 0) {
    const weight = vector.weights.get(vector.terms[end - 1])!;
    if (leftOut + weight * weight >= threshold * threshold) break;
    leftOut += weight * weight;
    end--;
  }
  return vector.terms.slice(0, end);
}

/**
 * Pairs of tools whose name + summary are nearly the same to a ranker: the cosine similarity of
 * their TF-IDF vectors is at least `threshold`. All-pairs similarity search with prefix filtering
 * (Bayardo et al., 2007): each tool is indexed only by its rarer terms, so candidates come from
 * short posting lists and common words ("get", "list") never make every pair a candidate.
 */
export function confusablePairs(tools: readonly QualityTool[], threshold = CONFUSABLE_THRESHOLD): { tools: [string, string]; similarity: number }[] {
  const vectors = tfidfVectors(tools);
  const postings = new Map<string, number[]>();
  vectors.forEach((vector, index) => {
    for (const term of indexedPrefix(vector, threshold)) {
      const list = postings.get(term);
      if (list) list.push(index);
      else postings.set(term, [index]);
    }
  });
  const pairs: { tools: [string, string]; similarity: number }[] = [];
  vectors.forEach((vector, index) => {
    const candidates = new Set<number>();
    for (const term of vector.terms) for (const other of postings.get(term) ?? []) if (other < index) candidates.add(other);
    for (const other of candidates) {
      const similarity = dot(vector, vectors[other]);
      if (similarity < threshold) continue;
      // Alphabetical, so a pair is always named the same way.
      pairs.push({ tools: [tools[other].name, tools[index].name].sort() as [string, string], similarity: Math.min(1, similarity) });
    }
  });
  return pairs.sort((a, b) => b.similarity - a.similarity || a.tools[0].localeCompare(b.tools[0]));
}

/** What is wrong with a summary, if anything: missing, adds nothing beyond the name, or too short. */
export function summaryProblem(tool: QualityTool): Exclude<FindingKind, "confusable" | "never-chosen"> | undefined {
  if (!tool.summary.trim()) return "missing-summary";
  const words = tokenise(tool.summary);
  const nameWords = new Set(tokenise(tool.name));
  if (!words.some((word) => !nameWords.has(word) && !GENERIC_WORDS.has(word))) return "vague-summary";
  if (words.length < MIN_SUMMARY_WORDS) return "short-summary";
  return undefined;
}

const SUMMARY_FINDINGS: Record<Exclude<FindingKind, "confusable" | "never-chosen">, { message: string; fix: string }> = {
  "missing-summary": {
    message: "Has no summary: preselection ranks it by its name alone.",
    fix: "Write one sentence saying what it does and to what, in the words a request for it would use.",
  },
  "vague-summary": {
    message: "Its summary says nothing beyond its name and generic verbs (run, handle, manage…): not what the tool acts on.",
    fix: "Name the object and the system it acts on, e.g. “Sends an email to one or more recipients through Gmail”.",
  },
  "short-summary": {
    message: `Its summary has fewer than ${MIN_SUMMARY_WORDS} content words: little for a ranker to match a request against.`,
    fix: "Add what it acts on and what it returns, and a word a person would use for it.",
  },
};

export function confusableFinding(pair: { tools: [string, string]; similarity: number }): QualityFinding {
  return {
    kind: "confusable",
    tools: pair.tools,
    similarity: pair.similarity,
    message: `Names and summaries are ${Math.round(pair.similarity * 100)} % alike: a request for one ranks the other about as high.`,
    fix: "Say in each summary what sets it apart (the system, the object, the scope), or disable one if they do the same thing.",
  };
}

export function summaryFindings(tools: readonly QualityTool[]): QualityFinding[] {
  const findings: QualityFinding[] = [];
  for (const tool of tools) {
    const problem = summaryProblem(tool);
    if (problem) findings.push({ kind: problem, tools: [tool.name], ...SUMMARY_FINDINGS[problem] });
  }
  return findings;
}

export function neverChosenFinding(name: string, days: number): QualityFinding {
  return {
    kind: "never-chosen",
    tools: [name],
    message: `No preselection, ToolSearch or evaluation case chose it in the last ${days} days.`,
    fix: "Check that its summary says what a request for it would say, add evaluation cases that need it, or disable it if nobody does.",
  };
}
