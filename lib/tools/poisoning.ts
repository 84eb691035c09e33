import { isFunctionWord, isStopword, splitWords, stem } from "../selection/local/tokenise";
import { asRead, disguisedWords } from "./look-alikes";
import { schemaTexts } from "./schema-texts";

/**
 * Tool poisoning: text in a tool's definition written for the model rather than for people, so
 * that the tool is chosen on every turn or the model is told to do what nobody asked. Each finding
 * names its kind, how bad it is and where (the field and the span of characters), so a reviewer
 * sees exactly what was flagged. Pure and cheap (regular expressions and word counts): it runs on
 * every import, every MCP listing and in the quality report.
 */

export const POISONING_KINDS = ["instruction", "hidden", "stuffing", "length"] as const;
type PoisoningKind = (typeof POISONING_KINDS)[number];
export type PoisoningSeverity = "high" | "medium" | "low";

export interface PoisoningFinding {
  kind: PoisoningKind;
  severity: PoisoningSeverity;
  /** "description", "summary", "title", or a string of the input or output schema by its path (`parameters.<path>` / `output.<path>`, see schemaTexts). */
  field: string;
  /** The offending characters of that field: [start, end). */
  start: number;
  end: number;
  message: string;
}

/** What a tool is compared with: the catalog's usual description (median breadth and length) and the other tools' names. */
export interface CatalogNorms {
  /** Median number of distinct content words in a description. */
  medianBreadth: number;
  /** Median description length in characters. */
  medianLength: number;
  /** Every tool's name, lowercased, for mentions of other tools. */
  toolNames: ReadonlySet<string>;
}

/** What the detector reads of a tool. */
export interface PoisoningSubject {
  name: string;
  summary?: string;
  description: string;
  inputSchema?: unknown;
  /** What an MCP server lists of it besides: its title and output schema reach clients and models too. */
  meta?: { title?: string; annotations?: Record<string, unknown>; outputSchema?: unknown } | null;
}

interface Pattern {
  kind: PoisoningKind;
  severity: PoisoningSeverity;
  pattern: RegExp;
  message: string;
}

const SELF = String.raw`(?:this|the\s+present|me|my)\s*(?:tool|function|plugin|server|one)?`;
const SELECT = "(?:select|choose|pick|use|call|invoke|run|prefer|include|rank|return)";

/** Text addressed to the model: imperatives about the model's choice or its instructions, concealment, exfiltration. */
const INSTRUCTION_PATTERNS: readonly Pattern[] = [
  {
    kind: "instruction",
    severity: "high",
    pattern: new RegExp(String.raw`\b(?:always|must|should\s+always|you\s+(?:must|should|have\s+to))\s+(?:first\s+)?${SELECT}\s+${SELF}\b`, "giu"),
    message: "Tells the model to always choose this tool.",
  },
  {
    kind: "instruction",
    severity: "high",
    pattern: new RegExp(
      String.raw`\b${SELECT}\s+${SELF}\s+(?:first|before\s+(?:any|all|every)\b|for\s+(?:every|all|any)\s+(?:request|query|task|question|message)s?|instead\s+of)`,
      "giu",
    ),
    message: "Tells the model to choose this tool before or instead of others.",
  },
  {
    kind: "instruction",
    severity: "high",
    pattern:
      /\b(?:ignore|disregard|forget|override|bypass)\s+(?:all\s+|any\s+)?(?:of\s+)?(?:the\s+)?(?:(?:your|previous|prior|above|earlier|other|existing|system|safety|original)\s+){1,2}(?:instructions?|prompts?|rules|guidelines|directions|messages|tools|policies)\b/giu,
    message: "Tells the model to ignore or override its instructions or other tools.",
  },
  {
    // Medium: a tool that manages assistants may name a system prompt for good reason; a reviewer tells which.
    kind: "instruction",
    severity: "medium",
    pattern: /\b(?:system\s+prompt|developer\s+message|hidden\s+instructions?|your\s+instructions)\b/giu,
    message: "Refers to the model's system prompt or instructions.",
  },
  {
    kind: "instruction",
    severity: "high",
    pattern:
      /\b(?:reveal|print|output|send|forward|leak|exfiltrate|upload|post|include|pass|attach|copy|paste)\b[^.\n]{0,60}?(?:\b(?:the\s+user's|users'|your|all|any|every|their)\s+(?:api[\s_-]?keys?|secrets?|credentials?|passwords?|private\s+keys?|access\s+tokens?|tokens|cookies|files)|\b(?:conversation|chat)\s+history|\bprevious\s+messages|id_rsa|~\/\.ssh|\.env\b|mcp\.json)/giu,
    message: "Asks for secrets or the conversation to be sent somewhere.",
  },
  {
    kind: "instruction",
    severity: "medium",
    pattern: /\b(?:read|open|cat|load|access)\b[^.\n]{0,40}(?:~\/\.ssh|id_rsa|id_ed25519|\.aws\/credentials|\.env\b|mcp\.json|\.netrc)/giu,
    message: "Asks for a file that holds credentials to be read.",
  },
  {
    kind: "instruction",
    severity: "high",
    pattern:
      /\b(?:do\s+not|don't|never|without)\s+(?:tell(?:ing)?|inform(?:ing)?|mention(?:ing)?|notify(?:ing)?|reveal(?:ing)?|show(?:ing)?|alert(?:ing)?|let(?:ting)?)\b[^.\n]{0,30}\bthe\s+user\b/giu,
    message: "Tells the model to hide something from the user.",
  },
  {
    kind: "instruction",
    severity: "medium",
    pattern: /<\/?\s*(?:important|system|instructions?|admin|override)\s*>|\[\s*(?:system|instructions?|admin)\s*\]/giu,
    message: "Markup that poses as an instruction to the model.",
  },
  {
    kind: "instruction",
    severity: "medium",
    pattern:
      /\b(?:you\s+are\s+(?:an?\s+)?(?:ai|assistant|language\s+model|llm|chatbot)|as\s+an\s+ai\b|dear\s+(?:ai|assistant|model)|(?:the\s+)?(?:ai|assistant|model|llm)\s+(?:must|should|shall)\b)/giu,
    message: "Addresses the model rather than describing the tool.",
  },
];

/**
 * Zero-width characters that hide text. Two of them also have a use in writing: the joiner (U+200D)
 * inside emoji sequences (👩‍💻), and the non-joiner (U+200C) between letters of Persian or Indic
 * words. Those two count only where they touch ASCII or the start or end of the text: no word of
 * those scripts, and no emoji, has them there.
 */
const ZERO_WIDTH = String.raw`[\u200b\u2060-\u2064\ufeff\u180e]|(?<![^\x00-\x7f])[\u200c\u200d]|[\u200c\u200d](?![^\x00-\x7f])`;

/**
 * Characters that show as nothing and carry no text, but split a word so that a pattern misses it
 * ("ig\u00adnore"): the soft hyphen, the grapheme joiner, Hangul fillers, and variation selectors
 * after a Latin letter (after an emoji or a digit of a keycap they are writing).
 */
const WORD_SPLITTERS = String.raw`[\u00ad\u034f\u115f\u1160\u3164\uffa0]|(?<=[A-Za-z])[\ufe00-\ufe0f\u{e0100}-\u{e01ef}]`;

/**
 * Hidden content: characters that do not show (zero-width, bidirectional controls, Unicode tag
 * characters), HTML comments, long encoded blobs, and markdown images whose fetch can carry data out.
 */
const HIDDEN_PATTERNS: readonly Pattern[] = [
  {
    kind: "hidden",
    severity: "high",
    pattern: new RegExp(`(?:${ZERO_WIDTH})+`, "gu"),
    message: "Zero-width characters: text that does not show to a person.",
  },
  {
    kind: "hidden",
    severity: "medium",
    pattern: new RegExp(`(?:${WORD_SPLITTERS})+`, "gu"),
    message: "Invisible characters inside words (a soft hyphen, a variation selector…): they can make a pattern miss a word.",
  },
  {
    kind: "hidden",
    severity: "high",
    pattern: /[\u202a-\u202e\u2066-\u2069]+/gu,
    message: "Bidirectional control characters: they can make text read differently than it is.",
  },
  { kind: "hidden", severity: "high", pattern: /[\u{e0000}-\u{e007f}]+/gu, message: "Unicode tag characters: invisible text a model can read." },
  { kind: "hidden", severity: "high", pattern: /<!--[\s\S]*?(?:-->|$)/gu, message: "An HTML comment: hidden from people where the description is rendered." },
  {
    kind: "hidden",
    severity: "high",
    pattern: /!\[[^\]\n]*\]\(\s*<?(?:https?:)?\/\/[^)\s]+[^)]*\)/giu,
    message: "A markdown image with a URL: rendering it fetches the address, which can carry data out.",
  },
  { kind: "hidden", severity: "medium", pattern: /[A-Za-z0-9+/_-]{100,}={0,2}/gu, message: "A long encoded blob (base64 or similar)." },
  {
    kind: "hidden",
    severity: "medium",
    pattern: /(?:\\x[0-9a-f]{2}){8,}|(?:\\u[0-9a-f]{4}){6,}|(?:%[0-9a-f]{2}){12,}|(?:&#x?[0-9a-f]+;){8,}/giu,
    message: "A run of escaped characters: text encoded so a person cannot read it.",
  },
];

/** Invisible characters and HTML comments: what is removed before a description reaches a model. */
const HIDDEN_TEXT = new RegExp(`${ZERO_WIDTH}|${WORD_SPLITTERS}|[\\u202a-\\u202e\\u2066-\\u2069\\u{e0000}-\\u{e007f}]|<!--[\\s\\S]*?(?:-->|$)`, "gu");

const HIDDEN_PRESENT = new RegExp(HIDDEN_TEXT.source, "u");

/** The text as a model should read it: without invisible characters and HTML comments (the original is kept for review). */
export function withoutHiddenContent(text: string): string {
  // Nearly every text has nothing hidden: one unanchored test is much cheaper than a replace that copies.
  return HIDDEN_PRESENT.test(text) ? text.replace(HIDDEN_TEXT, "") : text;
}

/** Thresholds against the catalog's norm, and floors so a catalog of terse tools does not flag an ordinary paragraph. */
const BREADTH_FACTOR = 4;
const BREADTH_FLOOR = 60;
const BREADTH_HIGH_FACTOR = 8;
const BREADTH_HIGH_FLOOR = 150;
const LENGTH_FACTOR = 6;
const LENGTH_FLOOR = 3_000;
const LENGTH_MEDIUM_FLOOR = 12_000;
/** Other tools' names mentioned: a few is a cross-reference, many is a list of names to match on. */
const OTHER_NAMES_MEDIUM = 4;
const OTHER_NAMES_HIGH = 8;
/** A name mentioned this often in one description is repeated to match on. */
const REPEATED_NAME = 4;

/** Distinct content words (stemmed), as a ranker counts the breadth of a text. */
function breadthOf(text: string): number {
  const terms = new Set<string>();
  for (const word of splitWords(text)) if (!isStopword(word)) terms.add(stem(word));
  return terms.size;
}

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Tools read for the medians: evenly spread over a large catalog, they give its median within a few words, in milliseconds. */
const NORM_SAMPLE = 1_000;

// A frozen tool's description breadth, counted once: a catalog's norms are worked out again for every revision.
const descriptionBreadths = new WeakMap<object, number>();

function descriptionBreadthOf(tool: { description: string }): number {
  let breadth = descriptionBreadths.get(tool);
  if (breadth === undefined) {
    breadth = breadthOf(tool.description);
    if (Object.isFrozen(tool)) descriptionBreadths.set(tool, breadth);
  }
  return breadth;
}

type NormedTool = { name: string; description: string };

/** Whether two versions of a catalog name the same tools in the same order (a revision keeps the objects of the tools it leaves alone). */
function sameNames(before: readonly NormedTool[], after: readonly NormedTool[]): boolean {
  if (before.length !== after.length) return false;
  for (let index = 0; index < after.length; index++) if (before[index] !== after[index] && before[index].name !== after[index].name) return false;
  return true;
}

/**
 * A catalog's norms, from its tools' names and descriptions (the medians from an even sample of a
 * large catalog). Given the norms of an earlier version of the catalog, its set of names is kept
 * while the names are the same: an edit of a description costs the sample, not every name again.
 */
export function catalogNorms(tools: readonly NormedTool[], earlier?: { tools: readonly NormedTool[]; norms: CatalogNorms }): CatalogNorms {
  const step = Math.max(1, tools.length / NORM_SAMPLE);
  const sample: NormedTool[] = [];
  for (let at = 0; at < tools.length; at += step) sample.push(tools[Math.floor(at)]);
  return {
    medianBreadth: median(sample.map(descriptionBreadthOf)),
    medianLength: median(sample.map((tool) => tool.description.length)),
    toolNames: earlier && sameNames(earlier.tools, tools) ? earlier.norms.toolNames : new Set(tools.map((tool) => tool.name.toLowerCase())),
  };
}

/** A name worth counting as a mention: distinctive enough (an identifier, not a plain word like "calculator"). */
function isDistinctiveName(name: string): boolean {
  return /[_\-.]|[a-z][A-Z]/.test(name) || name.length >= 12;
}

const ESCAPED_NAME = (name: string) => name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function matchesOf(field: string, text: string, patterns: readonly Pattern[], origins?: readonly number[]): PoisoningFinding[] {
  const findings: PoisoningFinding[] = [];
  const original = (index: number) => (origins === undefined ? index : origins[index]);
  for (const { kind, severity, pattern, message } of patterns) {
    for (const match of text.matchAll(pattern)) {
      if (match[0].length === 0) continue;
      findings.push({ kind, severity, field, start: original(match.index), end: original(match.index + match[0].length), message });
    }
  }
  return findings;
}

/**
 * One field's instructions (read as a person reads the text: look-alike letters as Latin ones, no
 * invisible characters inside words, see look-alikes.ts) and hidden content (in the text as it is).
 */
function fieldFindings(field: string, text: string): PoisoningFinding[] {
  const read = asRead(text);
  return [
    ...matchesOf(field, read.text, INSTRUCTION_PATTERNS, read.origins),
    ...matchesOf(field, text, HIDDEN_PATTERNS),
    ...disguisedWords(text).map(({ start, end }) => ({ kind: "hidden" as const, severity: "medium" as const, field, start, end, message: DISGUISED_WORD })),
  ];
}

const DISGUISED_WORD = "Letters of another script that look like Latin ones, inside a Latin word: text made to read as something it is not.";

/** Mentions of other tools' names in a description: many distinct ones, or one repeated, is stuffing. */
function nameStuffing(tool: PoisoningSubject, norms: CatalogNorms): PoisoningFinding[] {
  const words = tool.description.match(/[A-Za-z0-9][\w.-]*[A-Za-z0-9]/g) ?? [];
  const counts = new Map<string, number>();
  const own = tool.name.toLowerCase();
  for (const word of words) {
    const lower = word.toLowerCase();
    if (lower !== own && norms.toolNames.has(lower) && isDistinctiveName(word)) counts.set(lower, (counts.get(lower) ?? 0) + 1);
  }
  const findings: PoisoningFinding[] = [];
  const distinct = counts.size;
  if (distinct >= OTHER_NAMES_MEDIUM) {
    const first = [...counts.keys()][0];
    const start = tool.description.toLowerCase().search(new RegExp(`\\b${ESCAPED_NAME(first)}\\b`));
    findings.push({
      kind: "stuffing",
      severity: distinct >= OTHER_NAMES_HIGH ? "high" : "medium",
      field: "description",
      start: Math.max(0, start),
      end: tool.description.length,
      message: `Names ${distinct} other tools of the catalog: a list of names to be matched on rather than a description.`,
    });
  }
  const repeated = [...counts].filter(([, count]) => count >= REPEATED_NAME);
  if (repeated.length > 0 && distinct < OTHER_NAMES_MEDIUM) {
    findings.push({
      kind: "stuffing",
      severity: "medium",
      field: "description",
      start: 0,
      end: tool.description.length,
      message: `Repeats the name of ${repeated.map(([name]) => `"${name}"`).join(", ")} ${repeated[0][1]} times or more.`,
    });
  }
  return findings;
}

/** The share of a text's words that are function words ("the", "of", "to"): prose has a third or more, a word list almost none. */
function functionWordShare(text: string): number {
  const words = splitWords(text);
  return words.length === 0 ? 1 : words.filter(isFunctionWord).length / words.length;
}

/** Below this share of function words a broad text is a list of words, not prose. */
const WORD_LIST_SHARE = 0.2;

/**
 * A description far broader or longer than the catalog's. Broad prose (a long usage guide) is only
 * noted; a broad list of words, which matches many unrelated requests, is stuffing.
 */
function sizeFindings(tool: PoisoningSubject, norms: CatalogNorms): PoisoningFinding[] {
  const findings: PoisoningFinding[] = [];
  const breadth = breadthOf(tool.description);
  const broad = Math.max(BREADTH_FLOOR, BREADTH_FACTOR * norms.medianBreadth);
  if (breadth > broad) {
    const wordList = functionWordShare(tool.description) < WORD_LIST_SHARE;
    const high = breadth > Math.max(BREADTH_HIGH_FLOOR, BREADTH_HIGH_FACTOR * norms.medianBreadth);
    findings.push({
      kind: "stuffing",
      severity: wordList ? (high ? "high" : "medium") : "low",
      field: "description",
      start: 0,
      end: tool.description.length,
      message: wordList
        ? `A list of ${breadth} distinct words where the catalog's descriptions use ${Math.round(norms.medianBreadth)} (median): keyword stuffing matches unrelated requests.`
        : `Uses ${breadth} distinct words where the catalog's descriptions use ${Math.round(norms.medianBreadth)} (median): a broad description matches unrelated requests.`,
    });
  }
  const long = Math.max(LENGTH_FLOOR, LENGTH_FACTOR * norms.medianLength);
  if (tool.description.length > long) {
    findings.push({
      kind: "length",
      severity: tool.description.length > Math.max(LENGTH_MEDIUM_FLOOR, 4 * long) ? "medium" : "low",
      field: "description",
      start: Math.floor(long),
      end: tool.description.length,
      message: `${tool.description.length.toLocaleString("en")} characters where the catalog's descriptions have ${Math.round(norms.medianLength).toLocaleString("en")} (median).`,
    });
  }
  return findings;
}

const SEVERITY_ORDER: Record<PoisoningSeverity, number> = { high: 0, medium: 1, low: 2 };

/** Findings of one kind whose spans overlap are one passage to a reader: one finding, as severe as the worst of them. */
function mergeOverlapping(findings: PoisoningFinding[]): PoisoningFinding[] {
  const merged: PoisoningFinding[] = [];
  for (const finding of [...findings].sort((a, b) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0) || a.start - b.start)) {
    const last = merged.at(-1);
    if (last && last.kind === finding.kind && finding.start <= last.end) {
      last.end = Math.max(last.end, finding.end);
      if (SEVERITY_ORDER[finding.severity] < SEVERITY_ORDER[last.severity]) Object.assign(last, { severity: finding.severity, message: finding.message });
    } else merged.push({ ...finding });
  }
  return merged;
}

/**
 * What is wrong with a tool's text: instructions to the model and hidden content in its
 * description, summary and parameter descriptions; stuffing and length against the catalog's norms
 * (when given). Most severe first, then by field and position.
 */
export function poisoningFindings(tool: PoisoningSubject, norms?: CatalogNorms): PoisoningFinding[] {
  const fields = [{ field: "description", text: tool.description }];
  // A summary cut from the description repeats its findings: only one of its own counts.
  if (tool.summary && !tool.description.includes(tool.summary)) fields.push({ field: "summary", text: tool.summary });
  fields.push(...schemaTexts(tool.inputSchema));
  const title = tool.meta?.title ?? tool.meta?.annotations?.title;
  if (typeof title === "string") fields.push({ field: "title", text: title });
  fields.push(...schemaTexts(tool.meta?.outputSchema, "output"));
  const findings = fields.flatMap(({ field, text }) => mergeOverlapping(fieldFindings(field, text)));
  if (norms) findings.push(...nameStuffing(tool, norms), ...sizeFindings(tool, norms));
  return findings.sort(
    (a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || (a.field < b.field ? -1 : a.field > b.field ? 1 : 0) || a.start - b.start,
  );
}

/** A tool whose text has open medium or high findings, as a decision or a definition review names it. */
export interface FlaggedSelection {
  tool: string;
  severity: "high" | "medium";
  kinds: PoisoningKind[];
}

/** A tool's medium and high findings summed up, or undefined when it has none. */
export function flaggedOf(tool: string, findings: readonly PoisoningFinding[]): FlaggedSelection | undefined {
  const serious = findings.filter((finding) => finding.severity !== "low");
  if (serious.length === 0) return undefined;
  return { tool, severity: serious[0].severity === "high" ? "high" : "medium", kinds: [...new Set(serious.map((finding) => finding.kind))] };
}

/** How an MCP server's tools with medium findings are treated: held for a person (default), or approved with their listing. */
export type MediumFindings = "review" | "auto";

/** Whether findings hold a tool back until a person approves it: any high one, or a medium one unless the server says `auto`. */
export function holdsBack(findings: readonly PoisoningFinding[], medium: MediumFindings = "review"): boolean {
  return findings.some((finding) => finding.severity === "high" || (finding.severity === "medium" && medium === "review"));
}
