import { describe, expect, it } from "vitest";
import { safeReturnPath } from "@/lib/auth/forms";

/**
 * Issue 21, defect 6: `/sign-in?next=/%09/other-host` (and `%0a`) passed the return-path check, and
 * signed in the `%0a` form was a 500. `next` arrives decoded, so `%09` is a tab the browser drops.
 */
describe("return paths after sign-in", () => {
  const hostile = [
    "/\t/other-host",
    "/\n/other-host",
    "/\r\n/other-host",
    "/%09/other-host",
    "/%0a/other-host",
    "/%0d%0a/other-host",
    "//other-host",
    "///other-host",
    "/\\other-host",
    "/\\\\other-host",
    "\\/other-host",
    "/%2f/other-host",
    "/%2F%2Fother-host",
    "/%5c/other-host",
    "/%5Cother-host",
    "/..//other-host",
    "/./\\other-host",
    "/a/../..//other-host",
    "https://other-host/",
    "http:other-host",
    "//other-host@example.com",
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    " /catalogs",
    "",
    "catalogs",
    "/%E0%A4%A",
  ];

  it.each(hostile)("sends %j home", (path) => {
    expect(safeReturnPath(path)).toBe("/");
  });

  it("sends anything that is not one string home", () => {
    for (const value of [undefined, null, ["/catalogs"], 42, { toString: () => "/catalogs" }]) expect(safeReturnPath(value)).toBe("/");
  });

  it("keeps ordinary paths with their query and hash, in the parser's spelling", () => {
    expect(safeReturnPath("/")).toBe("/");
    expect(safeReturnPath("/catalogs/demo/tools")).toBe("/catalogs/demo/tools");
    expect(safeReturnPath("/catalogs/demo/tools?q=slack&page=2#tool-x")).toBe("/catalogs/demo/tools?q=slack&page=2#tool-x");
    expect(safeReturnPath("/invite/abc-DEF_123")).toBe("/invite/abc-DEF_123");
    expect(safeReturnPath("/search?next=//other-host")).toBe("/search?next=//other-host");
    expect(safeReturnPath("/a/./b/../c")).toBe("/a/c");
    // Spelled so that it is safe in a Location header.
    expect(safeReturnPath("/teams/é quipe")).toBe("/teams/%C3%A9%20quipe");
  });
});
