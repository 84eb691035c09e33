import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { formatInstant, LocalTime } from "@/components/local-time";

const INSTANT = "2025-03-12T23:30:05.123Z";

describe("dates on the pages", () => {
  it("are one format, in the time zone asked for", () => {
    expect(formatInstant(INSTANT, "UTC")).toBe("12 Mar 2025, 23:30");
    expect(formatInstant(INSTANT, "Asia/Tokyo")).toBe("13 Mar 2025, 08:30");
    expect(formatInstant(INSTANT, "America/New_York")).toBe("12 Mar 2025, 19:30");
  });

  it("render on the server in UTC, saying so, with the instant as dateTime and the exact time as tooltip", () => {
    const html = renderToStaticMarkup(createElement(LocalTime, { iso: INSTANT }));
    expect(html).toBe(`<time dateTime="${INSTANT}" title="12 Mar 2025, 23:30:05 UTC">12 Mar 2025, 23:30 UTC</time>`);
  });

  it("may show a label of its own (a relative time), keeping the exact time as tooltip", () => {
    const html = renderToStaticMarkup(createElement(LocalTime, { iso: INSTANT, label: "3 min ago" }));
    expect(html).toBe(`<time dateTime="${INSTANT}" title="12 Mar 2025, 23:30:05 UTC">3 min ago</time>`);
  });
});
