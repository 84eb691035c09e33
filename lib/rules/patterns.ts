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
 */
import type { FieldError } from "../tools/validate";

export const PATTERN_MAX = 200;
export const PATTERN_CHARACTERS = /^[A-Za-z0-9._:*/-]+$/;

export type Matcher = (subject: string) => boolean;

function compileGlob(pattern: string, flags: string): Matcher {
  const body = pattern
    .split("*")
    .map((literal) => literal.replace(/[.+?^${}()|[\]\\/-]/g, "\\$&"))
    .join(".*");
  const regExp = new RegExp(`^${body}$`, flags);
  return (subject) => regExp.test(subject);
}

export function compileModelPattern(pattern: string): Matcher {
  if (pattern.includes("*")) return compileGlob(pattern, "i");
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
  return compileGlob(pattern, "");
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
