import { describe, expect, it } from "vitest";
import { distanceBelow, isFollowing, leavesLatest } from "@/components/playground-follow";

describe("following a streaming answer", () => {
  it("measures the newest text against the composer's top when the composer sticks above the window's bottom", () => {
    expect(distanceBelow({ bottom: 900 }, { top: 780 }, 900)).toBe(120);
    expect(distanceBelow({ bottom: 700 }, { top: 780 }, 900)).toBe(-80);
  });

  it("measures against the window's bottom when the composer lies below it or is missing", () => {
    expect(distanceBelow({ bottom: 1000 }, { top: 1200 }, 900)).toBe(100);
    expect(distanceBelow({ bottom: 1000 }, undefined, 900)).toBe(100);
  });

  it("counts a reader a little above the newest text as following, one who scrolled up a screen as not", () => {
    expect(isFollowing(-300)).toBe(true);
    expect(isFollowing(40)).toBe(true);
    expect(isFollowing(600)).toBe(false);
  });
});

describe("what leaves a streaming answer", () => {
  const root = {};
  it("is the reader scrolling up: the wheel or a key upwards, a touch drag, a press on the scroll bar", () => {
    expect(leavesLatest({ type: "wheel", deltaY: -120 }, root)).toBe(true);
    expect(leavesLatest({ type: "keydown", key: "PageUp" }, root)).toBe(true);
    expect(leavesLatest({ type: "touchmove" }, root)).toBe(true);
    expect(leavesLatest({ type: "pointerdown", target: root }, root)).toBe(true);
  });

  it("is not scrolling down, typing, or a press on the page's content", () => {
    expect(leavesLatest({ type: "wheel", deltaY: 120 }, root)).toBe(false);
    expect(leavesLatest({ type: "keydown", key: "a" }, root)).toBe(false);
    expect(leavesLatest({ type: "pointerdown", target: {} }, root)).toBe(false);
  });
});
