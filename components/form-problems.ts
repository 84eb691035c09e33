import type { FieldError } from "@/lib/tools/validate";

/** The keys of a React Hook Form error itself, as opposed to those of the errors nested under it. */
const ERROR_KEYS = new Set(["type", "message", "types", "ref"]);

/**
 * React Hook Form files an error under its path split at "." and "[" (and drops quotes and "]"),
 * and an error's own keys (type, message) would clash with a path part of that name (a schema's
 * "inputSchema.type"): so each part of a path below a form field goes in as "%" and its characters
 * other than letters, digits, _ and - as %xxxx, and `formProblems` reads it back.
 */
export function subPath(parts: readonly string[]): string[] {
  return parts.map((part) => `%${part.replace(/[^\w-]/g, (character) => `%${character.charCodeAt(0).toString(16).padStart(4, "0")}`)}`);
}

function readPart(part: string): string {
  if (!part.startsWith("%")) return part;
  return part.slice(1).replace(/%([0-9a-f]{4})/g, (_match, code: string) => String.fromCharCode(Number.parseInt(code, 16)));
}

/** Each message of one error: every one it collected (criteriaMode "all"), else its message, if it has one. */
function messages(error: Record<string, unknown>): string[] {
  const texts = error.types ? Object.values(error.types as Record<string, string | string[] | boolean>).flat() : [error.message];
  return texts.filter((text): text is string => typeof text === "string");
}

/**
 * A form's errors (React Hook Form's `formState.errors`, nested by path) as the problems the
 * server reports, field by field: one list and one way to show both. An error about a whole row
 * list (its "root") is the list's.
 */
export function formProblems(errors: object, field = ""): FieldError[] {
  const node = errors as Record<string, unknown>;
  const own = typeof node.type === "string" ? messages(node).map((message) => ({ field, message })) : [];
  const nested = Object.entries(node).flatMap(([key, child]) => {
    if (ERROR_KEYS.has(key) || child === null || typeof child !== "object") return [];
    const at = key === "root" ? field : field ? `${field}.${readPart(key)}` : readPart(key);
    return formProblems(child, at);
  });
  return [...own, ...nested];
}
