/**
 * React keys for a list that is shown, not edited, and whose items have no id: each item's text,
 * counted so that equal items still get distinct keys ("1:text", "2:text", …).
 */
export function withContentKeys<T>(items: readonly T[], textOf: (item: T) => string): [key: string, item: T][] {
  const seen = new Map<string, number>();
  return items.map((item) => {
    const text = textOf(item);
    const count = (seen.get(text) ?? 0) + 1;
    seen.set(text, count);
    return [`${count}:${text}`, item];
  });
}
