import { splitWords, tokenise } from "../selection/local/tokenise";
import type { PoisoningFinding, PoisoningSeverity } from "../tools/poisoning";

/** What the report reads of a tool. */
export interface QualityTool {
  name: string;
  summary: string;
}

export const FINDING_KINDS = ["poisoning", "confusable", "missing-summary", "vague-summary", "boilerplate-summary", "short-summary", "never-chosen"] as const;
export type FindingKind = (typeof FINDING_KINDS)[number];
type SummaryKind = Exclude<FindingKind, "poisoning" | "confusable" | "never-chosen">;

/** One thing to fix, naming the tools it concerns. */
export interface QualityFinding {
  kind: FindingKind;
  tools: string[];
  message: string;
  fix: string;
  /** Confusable pairs: the cosine similarity of their name + summary vectors (0–1). */
  similarity?: number;
  /** Poisoning: the most severe of the tool's findings. */
  severity?: PoisoningSeverity;
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

/**
 * Openers that spend a summary's first words (all preselection reads besides the name) on saying
 * that a tool is a tool: "This tool …", "A function that …", "Use this tool to …", "Allows you to …".
 */
const BOILERPLATE_OPENER = new RegExp(
  [
    String.raw`^\s*(?:this|the)\s+(?:tool|function|endpoint|api|method|operation|action|command|utility|helper)\b`,
    String.raw`^\s*(?:(?:a|an)\s+)?(?:tool|function|endpoint|method|utility|helper)\s+(?:that|which|to|for|used|you)\b`,
    String.raw`^\s*use\s+this\s+(?:tool|function)\b`,
    String.raw`^\s*(?:allows|lets|enables)\s+(?:you|the\s+user|users|the\s+agent|the\s+model)\s+to\b`,
  ].join("|"),
  "i",
);

/** What is wrong with a summary on its own, if anything: missing, adds nothing beyond the name, boilerplate, or too short. */
export function summaryProblem(tool: QualityTool): SummaryKind | undefined {
  if (!tool.summary.trim()) return "missing-summary";
  const words = tokenise(tool.summary);
  const nameWords = new Set(tokenise(tool.name));
  if (!words.some((word) => !nameWords.has(word) && !GENERIC_WORDS.has(word))) return "vague-summary";
  if (BOILERPLATE_OPENER.test(tool.summary)) return "boilerplate-summary";
  if (words.length < MIN_SUMMARY_WORDS) return "short-summary";
  return undefined;
}

/** Tools sharing one summary template before it counts as boilerplate: two may be a legitimate pair. */
const TEMPLATE_MIN_TOOLS = 3;

/**
 * A summary with the tool's own name and name words replaced by a placeholder and numbers by "#":
 * "Get the user." and "Get the team." (for get_user and get_team) both read "{name} the {name}.".
 */
export function summaryTemplate(tool: QualityTool): string {
  const nameWords = new Set(splitWords(tool.name));
  const text = tool.summary.toLowerCase().split(tool.name.toLowerCase()).join(" {name} ");
  return text
    .replace(/[\p{L}\p{N}]+/gu, (word) => (nameWords.has(word) ? "{name}" : /^\p{N}+$/u.test(word) ? "#" : word))
    .replace(/\{name\}(?:[\s_.-]*\{name\})+/g, "{name}")
    .replace(/\s+/g, " ")
    .trim();
}

/** The summaries that are one template filled in with each tool's name, shared by at least three tools: template → names. */
export function templatedSummaries(tools: readonly QualityTool[]): Map<string, string[]> {
  const byTemplate = new Map<string, string[]>();
  for (const tool of tools) {
    if (!tool.summary.trim()) continue;
    const template = summaryTemplate(tool);
    if (!template.includes("{name}")) continue;
    const names = byTemplate.get(template);
    if (names) names.push(tool.name);
    else byTemplate.set(template, [tool.name]);
  }
  for (const [template, names] of byTemplate) if (names.length < TEMPLATE_MIN_TOOLS) byTemplate.delete(template);
  return byTemplate;
}

const SUMMARY_FINDINGS: Record<SummaryKind, { message: string; fix: string }> = {
  "missing-summary": {
    message: "Has no summary: preselection ranks it by its name alone.",
    fix: "Write one sentence saying what it does and to what, in the words a request for it would use.",
  },
  "vague-summary": {
    message: "Its summary says nothing beyond its name and generic verbs (run, handle, manage…): not what the tool acts on.",
    fix: "Name the object and the system it acts on, e.g. “Sends an email to one or more recipients through Gmail”.",
  },
  "boilerplate-summary": {
    message: "Its summary is boilerplate (“This tool …”, or a template other tools share with only the name changed): words a ranker learns nothing from.",
    fix: "Start with the verb and say what sets this tool apart, e.g. “Refunds a card payment through Stripe” instead of “This tool performs the refund operation”.",
  },
  "short-summary": {
    message: `Its summary has fewer than ${MIN_SUMMARY_WORDS} content words: little for a ranker to match a request against.`,
    fix: "Add what it acts on and what it returns, and a word a person would use for it.",
  },
};

/**
 * A confusable pair; `kept` names tools the report never tells to disable (always-on and built-in
 * tools: the agents depend on them), so a pair with one of them asks only for clearer summaries.
 */
export function confusableFinding(pair: { tools: [string, string]; similarity: number }, kept: ReadonlySet<string> = new Set()): QualityFinding {
  const disablable = !pair.tools.some((name) => kept.has(name));
  return {
    kind: "confusable",
    tools: pair.tools,
    similarity: pair.similarity,
    message: "Names and summaries are nearly the same: a request for one ranks the other about as high.",
    fix: `Say in each summary what sets it apart (the system, the object, the scope)${disablable ? ", or disable one if they do the same thing" : ""}.`,
  };
}

/** Per tool, the summary's problem: its own (summaryProblem), else boilerplate when its template is shared (templatedSummaries). */
export function summaryFindings(tools: readonly QualityTool[]): QualityFinding[] {
  const templated = new Set([...templatedSummaries(tools).values()].flat());
  const findings: QualityFinding[] = [];
  for (const tool of tools) {
    const problem = summaryProblem(tool) ?? (templated.has(tool.name) ? "boilerplate-summary" : undefined);
    if (problem) findings.push({ kind: problem, tools: [tool.name], ...SUMMARY_FINDINGS[problem] });
  }
  return findings;
}

const POISONING_FIX: Record<Exclude<PoisoningSeverity, "low">, string> = {
  high: "Read the flagged text on the tool's page. Text written for the model (or hidden from people) does not belong in a tool: reject the definition, fix the tool at its source, or remove its server.",
  medium: "Read the flagged text on the tool's page: rewrite it as a plain description of what the tool does, or approve it if it is meant for people.",
};

/**
 * One finding per tool whose text reads as poisoned (lib/tools/poisoning.ts), at medium or high
 * severity; low ones (a long or broad description) show on the tool's page only. `findingsOf` gives
 * a tool's findings, most severe first.
 */
export function poisoningQualityFindings<T extends { name: string }>(
  tools: readonly T[],
  findingsOf: (tool: T) => readonly PoisoningFinding[],
): QualityFinding[] {
  const findings: QualityFinding[] = [];
  for (const tool of tools) {
    const serious = findingsOf(tool).filter((finding) => finding.severity !== "low");
    if (serious.length === 0) continue;
    const severity = serious[0].severity as Exclude<PoisoningSeverity, "low">;
    const kinds = [...new Set(serious.map((finding) => finding.kind))].join(", ");
    findings.push({
      kind: "poisoning",
      tools: [tool.name],
      severity,
      message: `${serious.length === 1 ? `A ${severity}-severity finding` : `${serious.length} findings, the worst of ${severity} severity`} (${kinds}): ${serious[0].message}`,
      fix: POISONING_FIX[severity],
    });
  }
  return findings;
}

/** What the never-chosen check reads of a tool. */
export interface UsageTool {
  name: string;
  source: string;
  enabled: boolean;
  registered: boolean;
}

/**
 * The tools that are handed to a model without being chosen: every agent's base tools (read,
 * write, edit… for a coding agent). Preselection never ranks them, so "never chosen" says nothing of them.
 */
export function alwaysOnTools(agents: readonly { baseTools: readonly string[] }[]): Set<string> {
  return new Set(agents.flatMap((agent) => agent.baseTools));
}

/** The offered tools nothing chose, less the always-on ones; a built-in is never told to be disabled. */
export function neverChosenFindings(tools: readonly UsageTool[], chosen: ReadonlySet<string>, alwaysOn: ReadonlySet<string>, days: number): QualityFinding[] {
  return tools
    .filter((tool) => tool.enabled && tool.registered && !chosen.has(tool.name) && !alwaysOn.has(tool.name))
    .map((tool) => ({
      kind: "never-chosen" as const,
      tools: [tool.name],
      message: `No preselection, ToolSearch or evaluation case chose it in the last ${days} days.`,
      fix:
        tool.source === "builtin"
          ? "Check that its summary says what a request for it would say, or add evaluation cases that need it."
          : "Check that its summary says what a request for it would say, add evaluation cases that need it, or disable it if nobody does.",
    }));
}

/** Findings that share a kind and a fix: one fix line for them all, the tools listed under it. */
export interface FindingGroup {
  kind: FindingKind;
  fix: string;
  /** The message when every finding of the group says the same, else each finding keeps its own. */
  message?: string;
  findings: QualityFinding[];
}

/** Groups findings by kind and fix, in the order of FINDING_KINDS, the largest group of a kind first. */
export function groupFindings(findings: readonly QualityFinding[]): FindingGroup[] {
  const groups = new Map<string, FindingGroup>();
  for (const finding of findings) {
    const key = `${finding.kind}\n${finding.fix}`;
    const group = groups.get(key);
    if (group) group.findings.push(finding);
    else groups.set(key, { kind: finding.kind, fix: finding.fix, findings: [finding] });
  }
  for (const group of groups.values()) {
    const messages = new Set(group.findings.map((finding) => finding.message));
    if (messages.size === 1) group.message = group.findings[0].message;
  }
  return [...groups.values()].sort(
    (a, b) => FINDING_KINDS.indexOf(a.kind) - FINDING_KINDS.indexOf(b.kind) || b.findings.length - a.findings.length || (a.fix < b.fix ? -1 : 1),
  );
}
