/**
 * A word-level diff of two texts, for the history and held-back definitions: which words stayed,
 * which went and which came, in order, whitespace kept with the word before it so that joining
 * the kept and added parts gives the new text back, and the kept and removed parts the old one.
 */

export type WordDiffPart = { kind: "same" | "added" | "removed"; text: string };

/** Past this many word pairs the middle of two texts is shown as removed then added, whole, instead of being aligned. */
const ALIGN_LIMIT = 4_000_000;

/** The text cut into words, each with the whitespace that follows it. */
function words(text: string): string[] {
  return text.match(/\s+|\S+\s*/g) ?? [];
}

/** Appends a part, merging it into the last one when they are of the same kind. */
function push(parts: WordDiffPart[], kind: WordDiffPart["kind"], text: string) {
  if (text === "") return;
  const last = parts.at(-1);
  if (last?.kind === kind) last.text += text;
  else parts.push({ kind, text });
}

/** The longest common subsequence of two word lists, as the table of its lengths from each pair of positions on. */
function lcsTable(a: string[], b: string[]): Uint32Array {
  const width = b.length + 1;
  const table = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      table[i * width + j] = a[i] === b[j] ? table[(i + 1) * width + j + 1] + 1 : Math.max(table[(i + 1) * width + j], table[i * width + j + 1]);
    }
  }
  return table;
}

function alignMiddle(parts: WordDiffPart[], a: string[], b: string[]) {
  if (a.length * b.length > ALIGN_LIMIT) {
    push(parts, "removed", a.join(""));
    push(parts, "added", b.join(""));
    return;
  }
  const table = lcsTable(a, b);
  const width = b.length + 1;
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      push(parts, "same", a[i++]);
      j++;
    } else if (i < a.length && (j === b.length || table[(i + 1) * width + j] >= table[i * width + j + 1])) {
      push(parts, "removed", a[i++]);
    } else {
      push(parts, "added", b[j++]);
    }
  }
}

/** The parts of `after` against `before`, word by word, in order. */
export function wordDiff(before: string, after: string): WordDiffPart[] {
  const a = words(before);
  const b = words(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  const parts: WordDiffPart[] = [];
  push(parts, "same", a.slice(0, start).join(""));
  alignMiddle(parts, a.slice(start, a.length - end), b.slice(start, b.length - end));
  push(parts, "same", a.slice(a.length - end).join(""));
  return parts;
}
