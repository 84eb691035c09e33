import { API_PATHS } from "../openapi";

/** A route's path as segments, `null` where any one segment fits, `"rest"` where the rest does (`/api/auth/{path}`). */
type Pattern = { path: string; segments: (string | null)[]; rest: boolean };

const UNMATCHED = "unmatched";

let patterns: Pattern[] | undefined;

/** The patterns, those with fewer parameters first: a static segment wins over a parameter, as in Next's routing. */
function compiled(): Pattern[] {
  patterns ??= API_PATHS.map((path) => {
    const parts = path.split("/").slice(1);
    const rest = path.startsWith("/api/auth/");
    return { path, segments: parts.map((part) => (part.startsWith("{") ? null : part)), rest };
  }).sort((a, b) => a.segments.filter((part) => part === null).length - b.segments.filter((part) => part === null).length);
  return patterns;
}

function fits(pattern: Pattern, parts: string[]): boolean {
  if (pattern.rest ? parts.length < pattern.segments.length : parts.length !== pattern.segments.length) return false;
  return pattern.segments.every((segment, index) => segment === null || segment === parts[index]);
}

/**
 * The route pattern a request path belongs to (`/api/catalogs/{catalog}/tools/{name}`), or
 * `unmatched` for a path no route answers: metrics and spans are labelled by it, never by the
 * path itself, whose ids and names would make a series each.
 */
export function routePattern(pathname: string): string {
  const parts = pathname.split("/").slice(1);
  if (parts.at(-1) === "") parts.pop();
  return compiled().find((pattern) => fits(pattern, parts))?.path ?? UNMATCHED;
}
