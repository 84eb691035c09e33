import { z } from "zod";

/**
 * Refused in names, ids, model ids and patterns: C0 and C1 control characters and DEL (NUL, escape
 * sequences, line breaks), the bidirectional embedding, override and isolate controls U+202A–U+202E
 * and U+2066–U+2069 (a right-to-left override before "fdp.exe" makes "invoice" + it read as "invoiceexe.pdf")
 * and lone surrogates (not Unicode text: encoders, databases and terminals mangle or reject them).
 * With the `u` flag a surrogate range matches only surrogates without their pair.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this pattern finds and refuses
const UNSAFE_IN_NAMES = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\ud800-\udfff]/u;
/** In free text (descriptions, summaries) line breaks, tabs and bidirectional text are fine: only NUL and lone surrogates are refused. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what this pattern finds and refuses
const UNSAFE_IN_TEXT = /[\u0000\ud800-\udfff]/u;

function describe(character: string): string {
  const code = character.codePointAt(0)!;
  const point = `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
  if (code === 0) return `a NUL character (${point})`;
  if (code >= 0xd800 && code <= 0xdfff) return `a lone surrogate (${point}), which is not valid Unicode`;
  if ((code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069))
    return `a bidirectional control character (${point}), which can disguise how it reads`;
  return `a control character (${point})`;
}

function problem(value: string, unsafe: RegExp, what: string): string | undefined {
  const found = unsafe.exec(value);
  return found ? `Contains ${describe(found[0])}: not allowed in ${what}.` : undefined;
}

/** The value with each character a name may not hold written as \u{…}, to quote it in a message safely. */
export function showUnsafe(value: string): string {
  return value.replace(new RegExp(UNSAFE_IN_NAMES.source, "gu"), (character) => `\\u{${character.codePointAt(0)!.toString(16).toUpperCase()}}`);
}

/** Why a name, id, model id or pattern cannot be accepted, or undefined when it can. */
export function nameProblem(value: string): string | undefined {
  return problem(value, UNSAFE_IN_NAMES, "a name");
}

/** Why a description or summary cannot be accepted, or undefined when it can. */
export function textProblem(value: string): string | undefined {
  return problem(value, UNSAFE_IN_TEXT, "text");
}

const refinedWith = (check: (value: string) => string | undefined) =>
  z.string().superRefine((value, context) => {
    const message = check(value);
    if (message) context.addIssue({ code: "custom", message });
  });

/** A string schema for names, ids, model ids and patterns (see nameProblem); chain limits after it. */
export const safeName = () => refinedWith(nameProblem);

/** A string schema for descriptions and summaries (see textProblem); chain limits after it. */
export const safeText = () => refinedWith(textProblem);
