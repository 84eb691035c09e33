/**
 * The two pattern languages rules are written in.
 *
 * Model patterns (model rules, definition overrides) are matched case-insensitively against a
 * model id. A pattern without `*` matches when it occurs anywhere in the id ("gpt-" matches
 * "openai/gpt-5"); a pattern with `*` must match the whole id, `*` standing for any run of
 * characters, possibly empty ("gpt-5*" matches "gpt-5-mini" but not "openai/gpt-5").
 *
 * Name patterns (agent permissions) are matched against a tool name or a `task:<agent>` /
 * `skill:<name>` key, always as a whole: "edit" matches only "edit", "task:*" every subagent.
 * They are case-sensitive because tool names are identifiers the model calls verbatim.
 *
 * `*` is the only special character. Globs are matched without regular expressions, in time
 * linear in practice: the text before the first `*` is a prefix, the text after the last a suffix,
 * and the pieces between are found left to right, each at its earliest place (for `*`-only globs
 * the earliest place is never worse, so nothing is ever retried). The semantics are those of the
 * regular expression this replaced: `*` does not run across a line break (`\n`, `\r`, U+2028,
 * U+2029), and case-insensitive globs fold case as a regular expression's `i` flag does.
 */
import type { FieldError } from "../tools/validate";

export const PATTERN_MAX = 200;
const PATTERN_CHARACTERS = /^[A-Za-z0-9._:*/-]+$/;

export type Matcher = (subject: string) => boolean;

/** Splits at line breaks, keeping each break as its own (odd-indexed) element. */
const LINE_BREAKS = /([\n\r\u2028\u2029])/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range starts at U+0000 by definition
const ASCII = /^[\x00-\x7f]*$/;

/**
 * Case folding of a regular expression's `i` flag without `u` (ECMAScript's Canonicalize): each
 * UTF-16 code unit becomes its upper case when that is one code unit and does not turn a
 * non-ASCII character into an ASCII one ("ß" and the Kelvin sign stay as they are).
 */
function foldCase(text: string): string {
  if (ASCII.test(text)) return text.toUpperCase();
  let folded = "";
  for (let index = 0; index < text.length; index++) {
    const unit = text[index];
    const upper = unit.toUpperCase();
    const keep = upper.length !== 1 || (unit.charCodeAt(0) >= 128 && upper.charCodeAt(0) < 128);
    folded += keep ? unit : upper;
  }
  return folded;
}

/** Does `line` (no line breaks) match the glob that `segments` (the glob split at `*`) spell? */
function matchSegments(segments: readonly string[], line: string): boolean {
  const first = segments[0];
  if (segments.length === 1) return line === first;
  const last = segments[segments.length - 1];
  if (line.length < first.length + last.length || !line.startsWith(first) || !line.endsWith(last)) return false;
  const end = line.length - last.length;
  let position = first.length;
  for (let index = 1; index < segments.length - 1; index++) {
    const segment = segments[index];
    if (segment === "") continue;
    const found = line.indexOf(segment, position);
    if (found === -1 || found + segment.length > end) return false;
    position = found + segment.length;
  }
  return true;
}

/** A whole-subject glob; `fold` (if any) is applied to pattern and subject alike. */
function compileGlob(pattern: string, fold: (text: string) => string = (text) => text): Matcher {
  // Line breaks are matched only by themselves, so pattern and subject must have the same ones in
  // the same order, and each line of the pattern must match the corresponding line of the subject.
  const parts = fold(pattern).split(LINE_BREAKS);
  const lines = parts.map((part, index) => (index % 2 === 0 ? part.split("*") : [part]));
  return (subject) => {
    const subjectParts = fold(subject).split(LINE_BREAKS);
    if (subjectParts.length !== parts.length) return false;
    return lines.every((segments, index) => matchSegments(segments, subjectParts[index]));
  };
}

export function compileModelPattern(pattern: string): Matcher {
  if (pattern.includes("*")) return compileGlob(pattern, foldCase);
  const needle = pattern.toLowerCase();
  return (modelId) => modelId.toLowerCase().includes(needle);
}

/** Answers "does this pattern match the model?" for one model id, each distinct pattern once. */
export function modelPatternTester(modelId: string): (pattern: string) => boolean {
  const answers = new Map<string, boolean>();
  return (pattern) => {
    let answer = answers.get(pattern);
    if (answer === undefined) {
      answer = compileModelPattern(pattern)(modelId);
      answers.set(pattern, answer);
    }
    return answer;
  };
}

export function compileNamePattern(pattern: string): Matcher {
  if (pattern === "*") return () => true;
  if (!pattern.includes("*")) return (name) => name === pattern;
  return compileGlob(pattern);
}

export function validatePattern(pattern: unknown, field: string): FieldError[] {
  if (typeof pattern !== "string" || pattern.length === 0) return [{ field, message: "Pattern must not be empty." }];
  if (pattern.length > PATTERN_MAX) {
    return [{ field, message: `Pattern is ${pattern.length} characters long; the limit is ${PATTERN_MAX}.` }];
  }
  if (!PATTERN_CHARACTERS.test(pattern)) {
    return [{ field, message: "Pattern may contain only letters, digits, '.', '_', ':', '/', '-' and the wildcard '*'." }];
  }
  return [];
}
