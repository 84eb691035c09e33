import { type RefObject, useEffect, useRef, useState } from "react";

/** How far (px) the newest text may lie below the composer's top and still count as followed. */
const NEAR = 64;

/**
 * How far the end of the chat lies below what the reader sees of it: the window's bottom, or the
 * composer's top where the composer sticks to it. Negative when the end is in sight.
 */
export function distanceBelow(end: { bottom: number }, composer: { top: number } | undefined, windowHeight: number): number {
  return end.bottom - Math.min(composer?.top ?? windowHeight, windowHeight);
}

/** Whether a reader at this distance from the newest text is following it. */
export const isFollowing = (distance: number) => distance <= NEAR;

function distanceOf(end: RefObject<HTMLElement | null>, composer: RefObject<HTMLElement | null>): number {
  if (!end.current) return 0;
  return distanceBelow(end.current.getBoundingClientRect(), composer.current?.getBoundingClientRect(), window.innerHeight);
}

const UP_KEYS = new Set(["ArrowUp", "PageUp", "Home"]);

/**
 * Whether an input event is the reader scrolling away from the newest text: the wheel or a key
 * upwards, a touch drag, a press on the window's scroll bar. (A scroll event alone does not say
 * who scrolled: the page's own scrolls and growing text make them too.)
 */
export function leavesLatest(event: { type: string; deltaY?: number; key?: string; target?: unknown }, root: unknown): boolean {
  if (event.type === "wheel") return (event.deltaY ?? 0) < 0;
  if (event.type === "keydown") return UP_KEYS.has(event.key ?? "");
  if (event.type === "pointerdown") return event.target === root;
  return event.type === "touchmove";
}

const LEAVING = ["wheel", "keydown", "pointerdown", "touchmove"] as const;

/** Keys in a text field move its caret, not the page. */
const inTextField = (event: Event) => event.target instanceof Element && event.target.closest("textarea, input, select, [contenteditable]") !== null;

/**
 * While `active` (an answer streams), keeps the newest text in sight as `progress` grows, unless the
 * reader scrolled up: then `behind` is true until they scroll back down to it or `jump` brings it
 * back into sight. `end` marks the end of the chat, `composer` the box that sticks below it.
 */
export function useFollowLatest(active: boolean, progress: number) {
  const end = useRef<HTMLDivElement>(null);
  const composer = useRef<HTMLFormElement>(null);
  const following = useRef(true);
  const [behind, setBehind] = useState(false);
  const follow = (value: boolean) => {
    following.current = value;
    setBehind(!value);
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: `follow` only sets a ref and a state setter, both stable
  useEffect(() => {
    if (!active) return;
    // An answer starts followed: its message was just sent from the composer, below it.
    follow(true);
    const onInput = (event: Event) => !inTextField(event) && leavesLatest(event, document.documentElement) && follow(false);
    const onScroll = () => !following.current && isFollowing(distanceOf(end, composer)) && follow(true);
    for (const type of LEAVING) window.addEventListener(type, onInput, { passive: true });
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => {
      for (const type of LEAVING) window.removeEventListener(type, onInput);
      window.removeEventListener("scroll", onScroll);
    };
  }, [active]);

  // Each growth of the answer is scrolled to while the reader follows it.
  useEffect(() => {
    if (!active || !following.current || progress === 0) return;
    const distance = distanceOf(end, composer);
    if (distance > 0) window.scrollBy({ top: distance });
  }, [active, progress]);

  return {
    end,
    composer,
    behind: active && behind,
    jump: () => {
      follow(true);
      const distance = distanceOf(end, composer);
      if (distance > 0) window.scrollBy({ top: distance });
    },
  };
}
