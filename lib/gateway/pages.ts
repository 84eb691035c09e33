/**
 * Pagination of the gateway's lists (MCP `cursor` / `nextCursor`): a cursor is opaque to the client
 * and names where the next page starts in one version of the list (its fingerprint), so a cursor
 * from a list that has changed since, or one the gateway never gave, is refused rather than read
 * as some other place.
 */

/** Tools per page of `tools/list`: a turn's set is usually far smaller, so most lists are one page. */
const TOOLS_PAGE_SIZE = 500;

interface CursorContent {
  /** Where the page starts. */
  at: number;
  /** The list's fingerprint when the cursor was given. */
  of: string;
}

const encode = (content: CursorContent) => Buffer.from(JSON.stringify(content)).toString("base64url");

function decode(cursor: string): CursorContent | undefined {
  try {
    const content = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as Partial<CursorContent>;
    return Number.isSafeInteger(content.at) && typeof content.of === "string" ? (content as CursorContent) : undefined;
  } catch {
    return undefined;
  }
}

/** One page of `items` from `cursor` (the first without one), and the cursor of the next page when there is one; an error text for a cursor that is not valid for this list. */
export function pageOf<T>(
  items: readonly T[],
  fingerprint: string,
  cursor: string | undefined,
  size = TOOLS_PAGE_SIZE,
): { page: T[]; nextCursor?: string } | { invalid: string } {
  let start = 0;
  if (cursor !== undefined) {
    const content = decode(cursor);
    if (content === undefined || content.at <= 0 || content.at >= items.length) return { invalid: "Invalid cursor: it was not given by this list." };
    if (content.of !== fingerprint) return { invalid: "Invalid cursor: the list has changed since; list again from the start." };
    start = content.at;
  }
  const end = start + size;
  return { page: items.slice(start, end), ...(end < items.length ? { nextCursor: encode({ at: end, of: fingerprint }) } : {}) };
}
