import { describe, expect, it } from "vitest";
import { pageOf } from "@/lib/gateway/pages";

const items = Array.from({ length: 7 }, (_, index) => `tool_${index}`);

describe("pageOf", () => {
  it("walks a list page by page with opaque cursors, and gives no cursor after the last page", () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = pageOf(items, "v1", cursor, 3);
      if ("invalid" in page) throw new Error(page.invalid);
      seen.push(...page.page);
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== undefined);
    expect(seen).toEqual(items);
    expect(pages).toBe(3);
    expect(pageOf(items, "v1", undefined, 10)).toEqual({ page: items });
  });

  it("refuses a cursor it never gave, one past the end, and one from a version of the list that changed", () => {
    const first = pageOf(items, "v1", undefined, 3);
    if ("invalid" in first) throw new Error(first.invalid);
    expect(pageOf(items, "v2", first.nextCursor, 3)).toEqual({ invalid: expect.stringContaining("the list has changed") });
    for (const cursor of [
      "",
      "garbage",
      Buffer.from(JSON.stringify({ at: 99, of: "v1" })).toString("base64url"),
      Buffer.from('{"at":"1"}').toString("base64url"),
    ]) {
      expect(pageOf(items, "v1", cursor, 3)).toEqual({ invalid: expect.stringContaining("Invalid cursor") });
    }
  });
});
