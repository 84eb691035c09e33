import type { ComponentProps } from "react";

/**
 * Preformatted text (JSON, a description) in a box that scrolls when it is long: a named region in
 * the tab order, so a keyboard can scroll it and a screen reader says what it holds.
 */
export function CodeBlock({ label, className, ...rest }: { label: string } & Omit<ComponentProps<"pre">, "tabIndex" | "role" | "aria-label">) {
  // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus for the keyboard to scroll it (WCAG 2.1.1)
  // biome-ignore lint/a11y/useSemanticElements: the <pre> itself is the region, so that it keeps its preformatting and one box scrolls
  return <pre tabIndex={0} role="region" aria-label={label} className={className ? `diff ${className}` : "diff"} {...rest} />;
}
